import { eq } from "drizzle-orm";
import type { TenantDb } from "../db/client";
import { insertNewRow } from "../db/insert-new-row";
import { locations, warehouses } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import { AppError } from "../http/errors";
import { assertParent } from "./parent-location";
import { assertSellablePacking, duplicateCode, locationRecord } from "./records";
import type { CreateLocationBody } from "./schemas";

export async function createLocation(tdb: TenantDb, input: CreateLocationBody) {
  assertSellablePacking(input);
  const [warehouse] = await tdb.db
    .select({ id: warehouses.id })
    .from(warehouses)
    .where(inTenant(tdb, warehouses, eq(warehouses.id, input.warehouseId)))
    .limit(1);
  if (!warehouse)
    throw new AppError("NOT_FOUND", "Warehouse not found", { errors: ["warehouseId: warehouse not found"] });
  await assertParent(tdb, input.parentId, input.warehouseId);
  const row = await insertNewRow(
    tdb,
    locations,
    {
      warehouseId: input.warehouseId,
      code: input.code,
      name: input.name,
      type: input.type,
      parentId: input.parentId ?? null,
      pickSequence: input.pickSequence ?? null,
      active: input.active ?? true,
      sellable: input.sellable ?? true,
    },
    duplicateCode,
  );
  return locationRecord(row);
}
