import { asc, count, desc, type SQL } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import { offsetOf, type PageQuery, paged } from "../http/pagination";
import { type BoundStatement, type DrizzleQuery, type Handle, type ResultOf, runBatch } from "./batch";

type Rows<Q> = ResultOf<Q> extends readonly (infer R)[] ? R : never;

/** A drizzle select of a list's rows with its filters, before its order and window. */
interface ListSelect<Row> extends PromiseLike<Row[]> {
  orderBy(...order: SQL[]): { limit(limit: number): { offset(offset: number): DrizzleQuery } };
}

/**
 * A page of a list and its total, read in one round trip: `rows` selects the list's rows with their filters (any
 * columns and joins), `order` orders them and ends with an id, so rows that tie keep one order
 * and pages neither repeat nor skip them; the page's limit and offset are added here. `count` selects
 * `{ value: count() }` over the same filters. Every list of the API reads its page here.
 */
export async function readPage<Row, Item = Row>(
  handle: Handle,
  page: PageQuery,
  statements: { rows: ListSelect<Row>; order: readonly SQL[]; count: Count },
  toItem: (row: Row) => Item = (row) => row as unknown as Item,
) {
  const rows = statements.rows
    .orderBy(...statements.order)
    .limit(page.pageSize)
    .offset(offsetOf(page));
  const read = await runBatch(handle, { rows, count: statements.count });
  return paged((read.rows as Row[]).map(toItem), read.count[0]?.value ?? 0, page);
}

type Count = (DrizzleQuery & { _: { result: { value: number }[] } }) | BoundStatement<{ value: number }[]>;

/**
 * `readPage` of statements that carry their order, limit and offset already: the product page's, compiled once
 * per isolate with the window as bound values (compiled.ts).
 */
export async function readWindow<Q extends DrizzleQuery | BoundStatement<unknown[]>, Item = Rows<Q>>(
  handle: Handle,
  page: PageQuery,
  statements: { rows: Q; count: Count },
  toItem: (row: Rows<Q>) => Item = (row) => row as unknown as Item,
) {
  const read = await runBatch(handle, statements);
  const rows = read.rows as Rows<Q>[];
  return paged(rows.map(toItem), read.count[0]?.value ?? 0, page);
}

/** The order of a list that offers no choice of it: newest first, then by id. */
export function newestFirst(table: { createdAt: SQLiteColumn; id: SQLiteColumn }) {
  return [desc(table.createdAt), desc(table.id)];
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
        .$dynamic(),
      order: sortedBy(sortColumns, table.id, query.sort),
      count: db
        .select({ value: count() })
        .from(table as SQLiteTable)
        .where(where),
    },
    (row) => toItem(row as T["$inferSelect"]),
  );
}

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
    { ...query, sort: { field: "createdAt", direction: "desc" } },
    { createdAt: table.createdAt },
    toItem,
  );
}
