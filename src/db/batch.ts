import { is, SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { SQLiteAsyncDialect } from "drizzle-orm/sqlite-core";
import type { PlatformDb, PlatformScope, TenantDatabase, TenantDb } from "./client";

// D1 has no interactive transactions: a multi-row change is one batch (one transaction), guarded
// by conditional statements and CHECK constraints so that a request losing a race changes nothing.

/** A drizzle query builder (select, insert, update, delete): its batch result is what awaiting it gives. */
export type DrizzleQuery = BatchItem<"sqlite"> & {
  prepare(): PreparedQuery;
};

type PreparedQuery = {
  getQuery(): { sql: string; params: unknown[] };
  mapResult(result: unknown, fromBatch: true): unknown;
};

/**
 * How a drizzle query's batch result is read. A batch answers rows as objects keyed by column name, which drizzle
 * maps back by position: two selected columns of one name (`api_keys.id`, `tenants.id`) would shift every value
 * after them into the wrong field, so such a row is refused loudly (alias one of them).
 */
export function rowsOf(query: PreparedQuery): (r: D1Result) => unknown {
  // Drizzle keeps the selected fields on the prepared query (internal, but the mapping itself relies on them).
  const selected = (query as { fields?: readonly unknown[] }).fields?.length;
  return (r) => {
    const [row] = r.results;
    if (selected !== undefined && row && Object.keys(row).length !== selected) {
      throw new Error(
        `A batch row has ${Object.keys(row).length} columns for ${selected} fields: alias the columns sharing a name`,
      );
    }
    return query.mapResult(r, true);
  };
}

/**
 * An outbox row (built by src/outbox/outbox.ts only): its statement returns, as `id`, each row it wrote that is to
 * be handed off (null for one stored done: nobody subscribed to it). A batch that commits it records those ids on
 * the tenant handle, and the request's hand-off sends them to the webhooks once the response is a success.
 */
export interface EventStatement {
  readonly kind: "event";
  /** Every id the statement may write (some only if a condition evaluated in the batch holds). */
  readonly eventIds: readonly string[];
  readonly statement: SQL | BoundStatement<unknown>;
  /** False for an event its writer delivers itself (webhook.test): never handed off. */
  readonly handOff: boolean;
}

/** A statement compiled once per isolate and bound to one request's values (compiled.ts). */
export interface BoundStatement<R> {
  readonly kind: "bound";
  readonly query: { sql: string; params: unknown[] };
  read(result: D1Result): R;
}

/**
 * One statement of a batch: a drizzle builder, raw SQL (a write whose guard drizzle cannot express), a
 * compiled statement or an event.
 */
export type Statement = DrizzleQuery | SQL | BoundStatement<unknown> | EventStatement;

/** A batch entry: one statement, a group of them (read back as an array), or nothing. */
type Entry = Statement | readonly Statement[] | undefined;

/** What a statement gives in a batch: rows for a select (or a write with `returning`), else the D1 result. */
export type ResultOf<S> = S extends DrizzleQuery
  ? S["_"]["result"]
  : S extends BoundStatement<infer R>
    ? R
    : S extends SQL | EventStatement
      ? D1Result
      : never;

type ResultsOf<T extends readonly Statement[]> = { -readonly [I in keyof T]: ResultOf<T[I]> };

export type BatchResults<B extends Record<string, Entry>> = {
  [K in keyof B]: B[K] extends readonly Statement[]
    ? ResultsOf<B[K]>
    : B[K] extends Statement
      ? ResultOf<B[K]>
      : B[K] extends Statement | undefined
        ? ResultOf<NonNullable<B[K]>> | undefined
        : never;
};

/** What statements run through: a tenant's or the platform's handle, or a database the sweeps span. */
export type Handle = TenantDb | PlatformScope | TenantDatabase | PlatformDb;

const dialect = new SQLiteAsyncDialect();

const isEvent = (statement: Statement): statement is EventStatement =>
  (statement as EventStatement).kind === "event";

const isBound = (statement: Statement): statement is BoundStatement<unknown> =>
  (statement as BoundStatement<unknown>).kind === "bound";

function prepared(statement: Statement) {
  if (isBound(statement)) return statement;
  if (isEvent(statement)) {
    const event = statement.statement;
    return { query: is(event, SQL) ? dialect.sqlToQuery(event) : event.query, read: (r: D1Result) => r };
  }
  if (is(statement, SQL)) return { query: dialect.sqlToQuery(statement), read: (r: D1Result) => r };
  const query = statement.prepare();
  return { query: query.getQuery(), read: rowsOf(query) };
}

/**
 * Runs statements as one atomic D1 batch, in the order of `batch`'s keys, and returns each result under
 * its key: rows for a select (or a write with `returning`), the D1 result (`meta.changes`) for a write.
 * Drizzle's own `db.batch` reads results by position and drops raw SQL with bound parameters, which
 * guarded writes (`insert ... select ... where <guard>`) need.
 */
export async function runBatch<const B extends Record<string, Entry>>(
  handle: Handle,
  batch: B,
): Promise<BatchResults<B>> {
  const tenant = "committedEvents" in handle ? handle : undefined;
  const client = ("db" in handle ? handle.db : handle).$client;
  const entries = Object.entries(batch);
  const flat = entries.flatMap(([, entry]) =>
    entry === undefined ? [] : Array.isArray(entry) ? entry : [entry as Statement],
  );
  const steps = flat.map(prepared);
  // D1 refuses an empty batch ("No SQL statements detected"): a batch whose every entry is empty writes nothing.
  const results = steps.length
    ? await client.batch(steps.map(({ query }) => client.prepare(query.sql).bind(...query.params)))
    : [];

  flat.forEach((statement, i) => {
    if (!isEvent(statement) || !statement.handOff) return;
    if (!tenant) throw new Error("Events are written through a tenant's handle");
    for (const row of (results[i]?.results ?? []) as { id: string | null }[]) {
      if (row.id !== null) tenant.committedEvents.push(row.id);
    }
  });

  let next = 0;
  const read = () => {
    const i = next++;
    return (steps[i] as (typeof steps)[number]).read(results[i] as D1Result);
  };
  return Object.fromEntries(
    entries.map(([key, entry]) => [
      key,
      entry === undefined ? undefined : Array.isArray(entry) ? entry.map(read) : read(),
    ]),
  ) as BatchResults<B>;
}

/** Rows changed by one write of a batch (D1's meta.changes; triggers' writes included). */
export function changesOf(result: D1Result | undefined): number {
  return result?.meta.changes ?? 0;
}

/** The one row a batch read back (what it has just written); its absence is a bug, not a 404. */
export function onlyRow<T>(rows: readonly T[]): T {
  const [row] = rows;
  if (row === undefined) throw new Error("Expected the batch to read back one row");
  return row;
}

/** `column in (...)` with ONE bound parameter (a JSON array), whatever the number of values. */
export const inJsonArray = (column: unknown, values: readonly string[]) =>
  sql`${column} in (select value from json_each(${JSON.stringify(values)}))`;

/** `items` cut into runs of at most `size` (D1 binds at most 100 parameters per statement). */
export function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

// D1 stores at most 1,000,000 bytes in one string, bound parameters included; half of it leaves room
// for the one row that is bigger than a part on its own.
const PART_BYTES = 500_000;
const utf8 = new TextEncoder();

/** The UTF-8 size of a text: what it takes as a D1 value. */
export const utf8Bytes = (text: string) => utf8.encode(text).byteLength;

/** The UTF-8 size of a value's JSON: what it takes as a D1 parameter or a stored row. */
export const jsonBytes = (value: unknown) => utf8Bytes(JSON.stringify(value));

/**
 * `rows` cut into runs of at most `size` rows and about 500 KB of JSON, for bulk statements that pass
 * them as one JSON parameter (`json_each`): rows carrying long lists (serial numbers, descriptions)
 * never make a parameter D1 refuses.
 */
export function jsonChunks<T>(rows: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  let run: T[] = [];
  let bytes = 0;
  for (const row of rows) {
    const rowBytes = jsonBytes(row) + 1;
    if (run.length > 0 && (run.length === size || bytes + rowBytes > PART_BYTES)) {
      out.push(run);
      run = [];
      bytes = 0;
    }
    run.push(row);
    bytes += rowBytes;
  }
  if (run.length > 0) out.push(run);
  return out;
}
