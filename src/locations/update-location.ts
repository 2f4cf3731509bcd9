import type { TenantDb } from "../db/client";
import { asConflict } from "../db/constraint-errors";
import { locations } from "../db/schema/tenant";
import { notFound } from "../http/errors";
import { assertParent } from "./parent-location";
import { getLocation } from "./read-location";
import { duplicateCode, locationRecord, ofLocation } from "./records";
import type { UpdateLocationBody } from "./schemas";

export async function updateLocation(tdb: TenantDb, id: string, input: UpdateLocationBody) {
  const current = await getLocation(tdb, id);
  await assertParent(tdb, input.parentId, current.warehouseId, id);
  const [row] = await tdb.db
    .update(locations)
    .set({
      code: input.code,
      name: input.name,
      type: input.type,
      parentId: input.parentId ?? null,
      pickSequence: input.pickSequence ?? null,
      active: input.active ?? true,
      updatedAt: new Date().toISOString(),
    })
    .where(ofLocation(tdb, id))
    .returning()
    .catch((error) => asConflict(error, duplicateCode));
  if (!row) throw notFound("Location");
  return locationRecord(row);
}
