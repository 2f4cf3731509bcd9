import { z } from "@hono/zod-openapi";

// zod's own UUID check (RFC 9562: version 1 to 8, variant 10xx, or the nil and max UUIDs). `format: uuid`
// alone lets a validator accept any 8-4-4-4-12 hex string the API then refuses.
const UUID_PATTERN = z.regexes.uuid().source;

const isUuidSchema = (node: Record<string, unknown>) =>
  node.format === "uuid" &&
  (node.type === "string" || (Array.isArray(node.type) && node.type.includes("string")));

/** Gives every `format: uuid` schema of the document the pattern the API checks, so both refuse the same ids. */
export function withUuidPatterns<T>(document: T): T {
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const item of node) visit(item);
    } else if (node && typeof node === "object") {
      const schema = node as Record<string, unknown>;
      if (isUuidSchema(schema) && schema.pattern === undefined) schema.pattern = UUID_PATTERN;
      for (const value of Object.values(schema)) visit(value);
    }
  };
  visit(document);
  return document;
}
