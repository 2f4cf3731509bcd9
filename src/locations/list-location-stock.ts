import { eq } from "drizzle-orm";
import type { TenantDb } from "../db/client";
import { locations, stockLevels } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import { notFound } from "../http/errors";
import { lotFilters, stockLevelPage } from "../stock";
import type { LocationStockQuery } from "./schemas";

/** `GET /locations/{id}/inventory`: 404 for a location the tenant does not have. */
export async function listLocationStock(tdb: TenantDb, locationId: string, query: LocationStockQuery) {
  const [location] = await tdb.db
    .select({ id: locations.id })
    .from(locations)
    .where(inTenant(tdb, locations, eq(locations.id, locationId)))
    .limit(1);
  if (!location) throw notFound("Location");
  return stockLevelPage(tdb, [eq(stockLevels.locationId, locationId), ...lotFilters(tdb, query)], query);
}
