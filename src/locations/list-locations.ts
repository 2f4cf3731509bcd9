import { asc, count, desc, eq, like, or } from "drizzle-orm";
import type { TenantDb } from "../db/client";
import { readPage } from "../db/pages";
import { locations } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import { offsetOf } from "../http/pagination";
import { locationRecord } from "./records";
import type { ListLocationsQuery } from "./schemas";

const sortColumns = { code: locations.code, name: locations.name, createdAt: locations.createdAt };

export function listLocations(tdb: TenantDb, query: ListLocationsQuery) {
  const order = query.sort.direction === "asc" ? asc : desc;
  const pattern = query.search ? `%${query.search.replace(/[%_]/g, "")}%` : undefined;
  const where = inTenant(
    tdb,
    locations,
    query.warehouseId ? eq(locations.warehouseId, query.warehouseId) : undefined,
    query.type ? eq(locations.type, query.type) : undefined,
    pattern ? or(like(locations.code, pattern), like(locations.name, pattern)) : undefined,
  );
  return readPage(
    tdb,
    query,
    {
      rows: tdb.db
        .select()
        .from(locations)
        .where(where)
        .orderBy(order(sortColumns[query.sort.field]), order(locations.id))
        .limit(query.pageSize)
        .offset(offsetOf(query)),
      count: tdb.db.select({ value: count() }).from(locations).where(where),
    },
    locationRecord,
  );
}
