import type { TenantDb } from "../db/client";
import { warehouses } from "../db/schema/tenant";
import { notFound } from "../http/errors";
import { ofWarehouse, warehouseRecord } from "./records";

export async function getWarehouse(tdb: TenantDb, id: string) {
  const [row] = await tdb.db.select().from(warehouses).where(ofWarehouse(tdb, id)).limit(1);
  if (!row) throw notFound("Warehouse");
  return warehouseRecord(row);
}
