import { is, SQL } from "drizzle-orm";
import { SQLiteAsyncDialect } from "drizzle-orm/sqlite-core";
import type { Database, TenantDb } from "./client";

// D1 has no interactive transactions: a multi-row change is one batch (one transaction), guarded
// by conditional statements and CHECK constraints so that a request losing a race changes nothing.

/** Rows changed by one statement of a batch (D1's meta.changes). */
export function changesOf(result: D1Result | undefined): number {
  return result?.meta.changes ?? 0;
}

/** Whether a failed batch was rolled back by the named CHECK/UNIQUE constraint (a lost race, not a bug). */
export function violated(error: unknown, constraint: string): boolean {
  for (let e: unknown = error; e; e = (e as { cause?: unknown }).cause) {
    if (e instanceof Error && e.message.includes(constraint)) return true;
  }
  return false;
}

const dialect = new SQLiteAsyncDialect();

/** A write statement: raw SQL or a drizzle insert/update builder. */
export type Statement = SQL | { toSQL(): { sql: string; params: unknown[] } };

/**
 * Runs statements as one atomic D1 batch. Drizzle's own `db.batch` cannot carry raw SQL with bound
 * parameters (it drops the statement), and order batches need `insert ... select ... where <guard>`.
 */
export function runBatch(tdb: TenantDb, statements: readonly Statement[]): Promise<D1Result[]> {
  return runStatements(tdb.db, statements);
}

/** `runBatch` for platform-wide tables, which belong to no tenant. */
export function runStatements(db: Database, statements: readonly Statement[]): Promise<D1Result[]> {
  const client = (db as unknown as { $client: D1Database }).$client;
  return client.batch(
    statements.map((statement) => {
      const query = is(statement, SQL) ? dialect.sqlToQuery(statement) : statement.toSQL();
      return client.prepare(query.sql).bind(...query.params);
    }),
  );
}
