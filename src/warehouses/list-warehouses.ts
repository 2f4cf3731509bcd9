import { asc, count, desc, like, or } from "drizzle-orm";
import type { TenantDb } from "../db/client";
import { readPage } from "../db/pages";
import { warehouses } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import { offsetOf } from "../http/pagination";
import { warehouseRecord } from "./records";
import type { ListWarehousesQuery } from "./schemas";

const sortColumns = { code: warehouses.code, name: warehouses.name, createdAt: warehouses.createdAt };

export function listWarehouses(tdb: TenantDb, query: ListWarehousesQuery) {
  const order = query.sort.direction === "asc" ? asc : desc;
  const pattern = query.search ? `%${query.search.replace(/[%_]/g, "")}%` : undefined;
  const where = inTenant(
    tdb,
    warehouses,
    pattern ? or(like(warehouses.code, pattern), like(warehouses.name, pattern)) : undefined,
  );
  return readPage(
    tdb,
    query,
    {
      rows: tdb.db
        .select()
        .from(warehouses)
        .where(where)
        .orderBy(order(sortColumns[query.sort.field]), order(warehouses.id))
        .limit(query.pageSize)
        .offset(offsetOf(query)),
      count: tdb.db.select({ value: count() }).from(warehouses).where(where),
    },
    warehouseRecord,
  );
}
