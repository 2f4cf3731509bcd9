import { z } from "@hono/zod-openapi";

/**
 * A text field a body must carry: trimmed, not empty, at most `max` characters; missing or empty, the answer
 * says "`label` is required" (a code, a name, a SKU are named the same way everywhere).
 */
export const requiredText = (label: string, max: number) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(max, `must be at most ${max} characters`);
