import { uuidv7 } from "uuidv7";
import type { TenantDb } from "../db/client";
import { asConflict } from "../db/constraint-errors";
import { warehouses } from "../db/schema/tenant";
import { duplicateCode, type WarehouseRow, warehouseRecord } from "./records";
import type { WarehouseBody } from "./schemas";

export async function createWarehouse(tdb: TenantDb, input: WarehouseBody) {
  const now = new Date().toISOString();
  const row: WarehouseRow = {
    id: uuidv7(),
    tenantId: tdb.tenantId,
    code: input.code,
    name: input.name,
    address: input.address ?? null,
    active: input.active ?? true,
    createdAt: now,
    updatedAt: now,
  };
  await tdb.db
    .insert(warehouses)
    .values(row)
    .catch((error) => asConflict(error, duplicateCode));
  return warehouseRecord(row);
}
