import { and, eq, type SQL, sql } from "drizzle-orm";
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
    .where(inTenant(tdb, table, inJsonArray(table.id, [...new Set(ids)])));
