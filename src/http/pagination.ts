import { z } from "@hono/zod-openapi";

/**
 * `page` (1..1,000,000: a million pages is past any tenant's list; default 1) and `pageSize` (1..100, default 20), as
 * README's "Conventions" promise every list.
 */
export const pageQuery = z.object({
  page: z.coerce
    .number({ error: "must be an integer between 1 and 1000000" })
    .int("must be an integer between 1 and 1000000")
    .min(1, "must be an integer between 1 and 1000000")
    .max(1_000_000, "must be an integer between 1 and 1000000")
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
 * `sort=name` or `sort=-createdAt`: an enum of the resource's fields, each also with `-` for descending, so the
 * document refuses what the API refuses. Without a value the default applies (newest first everywhere).
 */
export function sortQuery<const F extends string>(fields: readonly [F, ...F[]], fallback: Sort<F>) {
  const values = fields.flatMap((field) => [field, `-${field}`]) as [F | `-${F}`, ...(F | `-${F}`)[]];
  return z
    .enum(values, { error: `must be one of ${fields.join(", ")} (prefix - for descending)` })
    .optional()
    .transform((value): Sort<F> => {
      if (!value) return fallback;
      const descending = value.startsWith("-");
      return { field: (descending ? value.slice(1) : value) as F, direction: descending ? "desc" : "asc" };
    })
    .openapi({
      param: { name: "sort", in: "query" },
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

/**
 * A page of a list already in memory (a kit's warehouses, a merchant's priced charges) and its total; a list read
 * from a table pages in its statement (`readPage`, src/db/pages.ts).
 */
export function pageOf<T, Item = T>(
  all: readonly T[],
  query: PageQuery,
  toItem: (item: T) => Item = (item) => item as unknown as Item,
) {
  const start = offsetOf(query);
  return paged(all.slice(start, start + query.pageSize).map(toItem), all.length, query);
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

/** The most ids one `ids` filter names: a page's worth. */
export const MAX_IDS = 100;

const UUID = "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}";

/**
 * `ids=<id>,<id>,...`: only these records (at most 100, comma-separated UUIDs), so a page that names records by id
 * (a ledger's products, charges' orders) reads them in one request instead of one each.
 */
export const idsQuery = (what: string) =>
  z
    .string()
    // No flags: the document's pattern is this regex's source.
    .regex(
      new RegExp(`^${UUID}(,${UUID}){0,${MAX_IDS - 1}}$`),
      `must be at most ${MAX_IDS} comma-separated UUIDs`,
    )
    .transform((list) => [...new Set(list.toLowerCase().split(","))])
    .optional()
    .openapi({
      param: { name: "ids", in: "query" },
      description: `Only the ${what} with these ids: at most ${MAX_IDS} UUIDs, comma-separated.`,
      example: "0193a2b0-0000-7000-8000-000000000001,0193a2b0-0000-7000-8000-000000000002",
    });
