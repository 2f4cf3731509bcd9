import { asc, eq, gt } from "drizzle-orm";
import { runBatch } from "../db/batch";
import type { TenantDb } from "../db/client";
import { locations, stockLevels } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import { notFound } from "../http/errors";
import { available } from "../stock";
import { lotQuery, lotRecord } from "./records";

/** `GET /lots/{id}`: the lot with its stock per location (404 outside the tenant). */
export async function readLot(tdb: TenantDb, id: string) {
  const read = await runBatch(tdb, {
    lot: lotQuery(tdb, id),
    stock: tdb.db
      .select({
        locationId: stockLevels.locationId,
        locationCode: locations.code,
        warehouseId: stockLevels.warehouseId,
        onHand: stockLevels.onHand,
        reserved: stockLevels.reserved,
        available,
      })
      .from(stockLevels)
      .innerJoin(locations, inTenant(tdb, locations, eq(locations.id, stockLevels.locationId)))
      .where(inTenant(tdb, stockLevels, eq(stockLevels.lotId, id), gt(stockLevels.onHand, 0)))
      .orderBy(asc(locations.code)),
  });
  const [row] = read.lot;
  if (!row) throw notFound("Lot");
  return { ...lotRecord(row), stock: read.stock, onHand: read.stock.reduce((sum, s) => sum + s.onHand, 0) };
}
