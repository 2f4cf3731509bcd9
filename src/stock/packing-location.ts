import { and, eq, inArray, sql } from "drizzle-orm";
import { uuidv7 } from "uuidv7";
import { runBatch } from "../db/batch";
import type { TenantDb } from "../db/client";
import { locations } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import { conflict } from "../http/errors";

/** The code of the packing location a warehouse gets when it needs one and has none. */
export const PACKING_CODE = "PACKING";

/** The warehouse's packing location, created (code PACKING) when it has none; concurrent creators agree on one. */
export const createPackingLocation = (tdb: TenantDb, warehouseId: string, now: string) =>
  sql`insert into locations (id, tenant_id, warehouse_id, code, name, type, active, created_at, updated_at)
    values (${uuidv7()}, ${tdb.tenantId}, ${warehouseId}, ${PACKING_CODE}, 'Packing', 'packing', 1, ${now}, ${now})
    on conflict (tenant_id, warehouse_id, code) do nothing`;

const noPackingLocation = (warehouseId: string) =>
  conflict(
    `Warehouse ${warehouseId} has no packing location and its code ${PACKING_CODE} is taken: create a location of type packing`,
  );

/**
 * The packing location of each warehouse, created first where one is missing (a location with no stock
 * until the caller's batch puts some there: harmless if that batch then fails).
 */
export async function packingLocations(
  tdb: TenantDb,
  warehouseIds: readonly string[],
): Promise<Map<string, string>> {
  const read = () =>
    tdb.db
      .select({ id: locations.id, warehouseId: locations.warehouseId })
      .from(locations)
      .where(
        inTenant(
          tdb,
          locations,
          and(inArray(locations.warehouseId, [...warehouseIds]), eq(locations.type, "packing")),
        ),
      );
  let found = await read();
  const missing = warehouseIds.filter((w) => !found.some((l) => l.warehouseId === w));
  if (missing.length) {
    const now = new Date().toISOString();
    await runBatch(tdb, {
      create: missing.map((warehouseId) => createPackingLocation(tdb, warehouseId, now)),
    });
    found = await read();
  }
  const byWarehouse = new Map(found.map((l) => [l.warehouseId, l.id]));
  const lacking = warehouseIds.find((w) => !byWarehouse.has(w));
  if (lacking) throw noPackingLocation(lacking);
  return byWarehouse;
}
