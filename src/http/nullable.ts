import { z } from "@hono/zod-openapi";

/**
 * `schema` or null, for a field holding a named component. `Named.nullable()` would carry the component's
 * name, so the document would register the nullable copy under it and make every use of it nullable
 * (request bodies included); a union keeps the component as it is.
 */
export const nullableRef = <T extends z.ZodType>(schema: T) => z.union([schema, z.null()]);
