import { z } from "@hono/zod-openapi";

/**
 * A query parameter naming several of `known`, comma-separated, each a name or a family (`order.*`): the distinct
 * names given, or a 400 for each that names nothing known ("unknown <noun> <name>").
 */
export const nameList = (known: readonly string[], noun: string) =>
  z
    .string()
    .trim()
    .transform((value, ctx) => {
      const names = [...new Set(value.split(",").map((name) => name.trim()))].filter(Boolean);
      for (const name of names) {
        const family = name.endsWith(".*") ? name.slice(0, -1) : undefined;
        const isKnown = family ? known.some((k) => k.startsWith(family)) : known.includes(name);
        if (!isKnown) ctx.addIssue({ code: "custom", message: `unknown ${noun} ${name}` });
      }
      return names;
    });
