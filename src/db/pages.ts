import { asc, count, desc, type SQL } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import { offsetOf, type PageQuery, paged } from "../http/pagination";
import { type BoundStatement, type DrizzleQuery, type Handle, type ResultOf, runBatch } from "./batch";

type Rows<Q> = ResultOf<Q> extends readonly (infer R)[] ? R : never;

/**
 * A page of a list and its total, read in one round trip: `rows` is the page's query (with its limit and
 * offset), `count` selects `{ value: count() }` over the same filters; either may be compiled (compiled.ts).
 */
export async function readPage<Q extends DrizzleQuery | BoundStatement<unknown[]>, Item = Rows<Q>>(
  handle: Handle,
  page: PageQuery,
  statements: {
    rows: Q;
    count: (DrizzleQuery & { _: { result: { value: number }[] } }) | BoundStatement<{ value: number }[]>;
  },
  toItem: (row: Rows<Q>) => Item = (row) => row as unknown as Item,
) {
  const read = await runBatch(handle, statements);
  const rows = read.rows as Rows<Q>[];
  return paged(rows.map(toItem), read.count[0]?.value ?? 0, page);
}

type Sort<F extends string> = { field: F; direction: "asc" | "desc" };

/**
 * The order of a sorted list: the chosen field, then the id the same way, so rows that tie on the field keep
 * one order and pages neither repeat nor skip them.
 */
export function sortedBy<F extends string>(
  columns: Record<F, SQLiteColumn>,
  id: SQLiteColumn,
  sort: Sort<F>,
) {
  const order = sort.direction === "asc" ? asc : desc;
  return [order(columns[sort.field]), order(id)];
}

/**
 * A sorted page of a table's rows matching `where` (the tenant's condition, filters), and their total: the
 * lists that show a table's rows as they are (warehouses, locations, API keys, tenants).
 */
export function readRowsPage<T extends SQLiteTable & { id: SQLiteColumn }, F extends string, Item>(
  handle: Handle,
  table: T,
  where: SQL | undefined,
  query: PageQuery & { sort: Sort<F> },
  sortColumns: Record<F, SQLiteColumn>,
  toItem: (row: T["$inferSelect"]) => Item,
) {
  const db = "db" in handle ? handle.db : handle;
  return readPage(
    handle,
    query,
    {
      rows: db
        .select()
        .from(table as SQLiteTable)
        .where(where)
        .orderBy(...sortedBy(sortColumns, table.id, query.sort))
        .limit(query.pageSize)
        .offset(offsetOf(query)),
      count: db
        .select({ value: count() })
        .from(table as SQLiteTable)
        .where(where),
    },
    (row) => toItem(row as T["$inferSelect"]),
  );
}

const newestFirst = { field: "createdAt", direction: "desc" } as const;

/**
 * A page of a table's rows matching `where`, newest first (then by id), and their total: the lists without a
 * choice of order (invitations, webhook subscriptions, webhook deliveries).
 */
export function readNewestFirst<T extends SQLiteTable & { id: SQLiteColumn; createdAt: SQLiteColumn }, Item>(
  handle: Handle,
  table: T,
  where: SQL | undefined,
  query: PageQuery,
  toItem: (row: T["$inferSelect"]) => Item,
) {
  return readRowsPage(
    handle,
    table,
    where,
    { ...query, sort: newestFirst },
    { createdAt: table.createdAt },
    toItem,
  );
}
