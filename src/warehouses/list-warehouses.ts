import { or } from "drizzle-orm";
import type { TenantDb } from "../db/client";
import { readRowsPage } from "../db/pages";
import { warehouses } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import { contains } from "../db/text-match";
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
  return readRowsPage(tdb, warehouses, where, query, sortColumns, warehouseRecord);
}
