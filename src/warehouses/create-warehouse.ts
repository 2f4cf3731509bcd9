import type { TenantDb } from "../db/client";
import { insertNewRow } from "../db/insert-new-row";
import { warehouses } from "../db/schema/tenant";
import { duplicateCode, warehouseRecord } from "./records";
import type { WarehouseBody } from "./schemas";

export async function createWarehouse(tdb: TenantDb, input: WarehouseBody) {
  const row = await insertNewRow(
    tdb,
    warehouses,
    { code: input.code, name: input.name, address: input.address ?? null, active: input.active ?? true },
    duplicateCode,
  );
  return warehouseRecord(row);
}
