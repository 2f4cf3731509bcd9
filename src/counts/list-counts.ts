import { count, eq, type SQL } from "drizzle-orm";
import type { TenantDb } from "../db/client";
import { newestFirst, readPage } from "../db/pages";
import { inventoryCounts } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import { countSummary } from "./records";
import type { CountsQuery } from "./schemas";

/** `GET /inventory/counts`, newest first. */
export function listCounts(tdb: TenantDb, query: CountsQuery) {
  const filters: (SQL | undefined)[] = [
    query.status ? eq(inventoryCounts.status, query.status) : undefined,
    query.warehouseId ? eq(inventoryCounts.warehouseId, query.warehouseId) : undefined,
  ];
  return readPage(
    tdb,
    query,
    {
      rows: tdb.db
        .select()
        .from(inventoryCounts)
        .where(inTenant(tdb, inventoryCounts, ...filters)),
      order: newestFirst(inventoryCounts),
      count: tdb.db
        .select({ value: count() })
        .from(inventoryCounts)
        .where(inTenant(tdb, inventoryCounts, ...filters)),
    },
    countSummary,
  );
}
