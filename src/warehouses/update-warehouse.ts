import type { TenantDb } from "../db/client";
import { asConflict } from "../db/constraint-errors";
import { warehouses } from "../db/schema/tenant";
import { notFound } from "../http/errors";
import { duplicateCode, ofWarehouse, warehouseRecord } from "./records";
import type { WarehouseBody } from "./schemas";

export async function updateWarehouse(tdb: TenantDb, id: string, input: WarehouseBody) {
  const [row] = await tdb.db
    .update(warehouses)
    .set({
      code: input.code,
      name: input.name,
      address: input.address ?? null,
      active: input.active ?? true,
      updatedAt: new Date().toISOString(),
    })
    .where(ofWarehouse(tdb, id))
    .returning()
    .catch((error) => asConflict(error, duplicateCode));
  if (!row) throw notFound("Warehouse");
  return warehouseRecord(row);
}
