import { and, eq, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";

/**
 * `table.tenant_id = <the handle's tenant>` and every other condition: the one way a query of a tenant
 * table is limited to its tenant (in `where` and in join conditions alike).
 */
export function inTenant(
  tdb: { readonly tenantId: string },
  table: { tenantId: SQLiteColumn },
  ...conditions: (SQL | undefined)[]
): SQL {
  return and(eq(table.tenantId, tdb.tenantId), ...conditions) as SQL;
}
