import { z } from "@hono/zod-openapi";

/** `page` (>= 1, default 1) and `pageSize` (1..100, default 20), contract section 5. */
export const pageQuery = z.object({
  page: z.coerce
    .number({ error: "must be an integer >= 1" })
    .int("must be an integer >= 1")
    .min(1, "must be an integer >= 1")
    .default(1)
    .openapi({ param: { name: "page", in: "query" }, example: 1 }),
  pageSize: z.coerce
    .number({ error: "must be an integer between 1 and 100" })
    .int("must be an integer between 1 and 100")
    .min(1, "must be an integer between 1 and 100")
    .max(100, "must be an integer between 1 and 100")
    .default(20)
    .openapi({ param: { name: "pageSize", in: "query" }, example: 20 }),
});

export type PageQuery = z.infer<typeof pageQuery>;

export type Sort<F extends string> = { field: F; direction: "asc" | "desc" };

/**
 * `sort=name` or `sort=-createdAt`, checked against the resource's allow list.
 * Without a value the default applies (newest first everywhere).
 */
export function sortQuery<const F extends string>(fields: readonly [F, ...F[]], fallback: Sort<F>) {
  const allowed = new Set<string>(fields);
  return z
    .string()
    .optional()
    .transform((value, ctx): Sort<F> => {
      if (!value) return fallback;
      const direction = value.startsWith("-") ? "desc" : "asc";
      const field = value.replace(/^[-+]/, "");
      if (!allowed.has(field)) {
        ctx.addIssue({
          code: "custom",
          message: `must be one of ${fields.join(", ")} (prefix - for descending)`,
        });
        return z.NEVER;
      }
      return { field: field as F, direction };
    })
    .openapi({
      param: { name: "sort", in: "query" },
      type: "string",
      description: `One of ${fields.join(", ")}; prefix with - for descending.`,
      example: `-${fallback.field}`,
    });
}

export function offsetOf({ page, pageSize }: PageQuery): number {
  return (page - 1) * pageSize;
}

export function paged<T>(items: T[], totalCount: number, { page, pageSize }: PageQuery) {
  return { items, totalCount, page, pageSize, totalPages: Math.ceil(totalCount / pageSize) };
}

/** The OpenAPI shape of a paged list of `item`. */
export function pagedOf<T extends z.ZodType>(item: T) {
  return z.object({
    items: z.array(item),
    totalCount: z.number().int(),
    page: z.number().int(),
    pageSize: z.number().int(),
    totalPages: z.number().int(),
  });
}
