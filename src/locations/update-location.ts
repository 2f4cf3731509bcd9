import { and, eq, gt, notExists, type SQL, sql } from "drizzle-orm";
import type { TenantDb } from "../db/client";
import { asConflict } from "../db/constraint-errors";
import { locations, stockLevels } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import { conflict } from "../http/errors";
import { assertParent } from "./parent-location";
import { getLocation } from "./read-location";
import { assertSellablePacking, duplicateCode, locationRecord, ofLocation } from "./records";
import type { UpdateLocationBody } from "./schemas";

/** No stock is reserved at the location: what a location must be to become non-sellable. */
const nothingReservedAt = (tdb: TenantDb, id: string): SQL =>
  notExists(
    tdb.db
      .select({ one: sql`1` })
      .from(stockLevels)
      .where(inTenant(tdb, stockLevels, eq(stockLevels.locationId, id), gt(stockLevels.reserved, 0))),
  );

/**
 * Replaces a location's fields. Making it non-sellable is refused (409) while stock there is reserved (an
 * order's or a hold's), checked in the update itself; the trigger on stock_levels refuses reserving there after.
 */
export async function updateLocation(tdb: TenantDb, id: string, input: UpdateLocationBody) {
  assertSellablePacking(input);
  const current = await getLocation(tdb, id);
  await assertParent(tdb, input.parentId, current.warehouseId, id);
  const sellable = input.sellable ?? true;
  const [row] = await tdb.db
    .update(locations)
    .set({
      code: input.code,
      name: input.name,
      type: input.type,
      parentId: input.parentId ?? null,
      pickSequence: input.pickSequence ?? null,
      active: input.active ?? true,
      sellable,
      updatedAt: new Date().toISOString(),
    })
    .where(and(ofLocation(tdb, id), sellable ? undefined : nothingReservedAt(tdb, id)))
    .returning()
    .catch((error) => asConflict(error, duplicateCode));
  if (!row) {
    await getLocation(tdb, id);
    throw conflict(
      `Location ${current.code} holds stock reserved for orders or holds; release or pick it before making the location non-sellable`,
    );
  }
  return locationRecord(row);
}
