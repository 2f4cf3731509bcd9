import { asc, desc } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { type PageQuery, paged } from "../http/pagination";
import { type DrizzleQuery, type Handle, runBatch } from "./batch";

type Rows<Q> = Q extends DrizzleQuery ? (Q["_"]["result"] extends readonly (infer R)[] ? R : never) : never;

/**
 * A page of a list and its total, read in one round trip: `rows` is the page's query (with its limit and
 * offset), `count` selects `{ value: count() }` over the same filters.
 */
export async function readPage<Q extends DrizzleQuery, Item = Rows<Q>>(
  handle: Handle,
  page: PageQuery,
  statements: { rows: Q; count: DrizzleQuery & { _: { result: { value: number }[] } } },
  toItem: (row: Rows<Q>) => Item = (row) => row as unknown as Item,
) {
  const read = await runBatch(handle, statements);
  const rows = read.rows as Rows<Q>[];
  return paged(rows.map(toItem), read.count[0]?.value ?? 0, page);
}

/**
 * The order of a sorted list: the chosen field, then the id the same way, so rows that tie on the field keep
 * one order and pages neither repeat nor skip them.
 */
export function sortedBy<F extends string>(
  columns: Record<F, SQLiteColumn>,
  id: SQLiteColumn,
  sort: { field: F; direction: "asc" | "desc" },
) {
  const order = sort.direction === "asc" ? asc : desc;
  return [order(columns[sort.field]), order(id)];
}
