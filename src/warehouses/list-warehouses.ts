import { count, or } from "drizzle-orm";
import type { TenantDb } from "../db/client";
import { readPage, sortedBy } from "../db/pages";
import { warehouses } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import { contains } from "../db/text-match";
import { offsetOf } from "../http/pagination";
import { warehouseRecord } from "./records";
import type { ListWarehousesQuery } from "./schemas";

const sortColumns = { code: warehouses.code, name: warehouses.name, createdAt: warehouses.createdAt };

export function listWarehouses(tdb: TenantDb, query: ListWarehousesQuery) {
  const where = inTenant(
    tdb,
    warehouses,
    query.search
      ? or(contains(warehouses.code, query.search), contains(warehouses.name, query.search))
      : undefined,
  );
  return readPage(
    tdb,
    query,
    {
      rows: tdb.db
        .select()
        .from(warehouses)
        .where(where)
        .orderBy(...sortedBy(sortColumns, warehouses.id, query.sort))
        .limit(query.pageSize)
        .offset(offsetOf(query)),
      count: tdb.db.select({ value: count() }).from(warehouses).where(where),
    },
    warehouseRecord,
  );
}
