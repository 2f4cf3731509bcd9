import { and, eq, is, SQL, sql } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import { inJsonArray } from "./batch";
import type { TenantDb } from "./client";
import { merchantCondition, type Scope } from "./merchant-scope";

/**
 * `table.tenant_id = <the handle's tenant>`, for a handle acting for one merchant that merchant's rows only
 * (merchant-scope.ts), and every other condition: the one way a query of a tenant table is limited to its
 * tenant (in `where` and in join conditions alike).
 */
export function inTenant(
  tdb: Scope,
  table: { tenantId: SQLiteColumn },
  ...conditions: (SQL | undefined)[]
): SQL {
  return and(eq(table.tenantId, tdb.tenantId), merchantCondition(tdb, table), ...conditions) as SQL;
}

/** `select 1` from the rows of `table` in the handle's tenant (and merchant) meeting every condition: for `exists`. */
export const tenantRows = (
  tdb: TenantDb,
  table: SQLiteTable & { tenantId: SQLiteColumn },
  ...conditions: (SQL | undefined)[]
) =>
  tdb.db
    .select({ one: sql`1` })
    .from(table)
    .where(inTenant(tdb, table, ...conditions));

/**
 * `inTenant` for the rows of `table` whose id is among `ids` (a list, or a subquery of ids), with any other
 * condition: each looked up by its key.
 * Without statistics SQLite takes `tenant_id = ?` for the narrower filter and finds a few ids by walking every row
 * of the tenant through a tenant index (a 100-line stock batch read every product of the tenant,
 * test/rows-read.test.ts); `+` leaves that term a check on the rows the key finds.
 */
export function inTenantAmong(
  tdb: Scope,
  table: { tenantId: SQLiteColumn; id: SQLiteColumn },
  ids: readonly string[] | SQL,
  ...conditions: (SQL | undefined)[]
): SQL {
  return and(
    sql`+${table.tenantId} = ${tdb.tenantId}`,
    merchantCondition(tdb, table),
    is(ids, SQL) ? sql`${table.id} in ${ids}` : inJsonArray(table.id, ids),
    ...conditions,
  ) as SQL;
}

/**
 * Which of `ids` the tenant has in `table` (`{ id }` rows; put it in the caller's read batch): the read behind
 * a 404 naming each id it does not have. No ids reads nothing.
 */
export const tenantIdsAmong = <T extends SQLiteTable & { id: SQLiteColumn; tenantId: SQLiteColumn }>(
  tdb: TenantDb,
  table: T,
  ids: readonly string[],
) =>
  tdb.db
    .select({ id: sql<string>`${table.id}` })
    .from(table)
    .where(inTenantAmong(tdb, table, [...new Set(ids)]));
