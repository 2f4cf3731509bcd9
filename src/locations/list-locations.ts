import { eq, or } from "drizzle-orm";
import type { TenantDb } from "../db/client";
import { readRowsPage } from "../db/pages";
import { locations } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import { contains } from "../db/text-match";
import { locationRecord } from "./records";
import type { ListLocationsQuery } from "./schemas";

const sortColumns = { code: locations.code, name: locations.name, createdAt: locations.createdAt };

export function listLocations(tdb: TenantDb, query: ListLocationsQuery) {
  const where = inTenant(
    tdb,
    locations,
    query.warehouseId ? eq(locations.warehouseId, query.warehouseId) : undefined,
    query.type ? eq(locations.type, query.type) : undefined,
    query.search
      ? or(contains(locations.code, query.search), contains(locations.name, query.search))
      : undefined,
  );
  return readRowsPage(tdb, locations, where, query, sortColumns, locationRecord);
}
