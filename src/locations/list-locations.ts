import { count, eq, or } from "drizzle-orm";
import type { TenantDb } from "../db/client";
import { readPage, sortedBy } from "../db/pages";
import { locations } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import { contains } from "../db/text-match";
import { offsetOf } from "../http/pagination";
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
  return readPage(
    tdb,
    query,
    {
      rows: tdb.db
        .select()
        .from(locations)
        .where(where)
        .orderBy(...sortedBy(sortColumns, locations.id, query.sort))
        .limit(query.pageSize)
        .offset(offsetOf(query)),
      count: tdb.db.select({ value: count() }).from(locations).where(where),
    },
    locationRecord,
  );
}
