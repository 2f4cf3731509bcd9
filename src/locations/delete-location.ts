import { and, eq, exists, not, type SQL, sql } from "drizzle-orm";
import { runBatch } from "../db/batch";
import type { TenantDb } from "../db/client";
import { locations, stockLevels } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import { conflict } from "../http/errors";
import { holdsStock, keepDeletedLevels } from "../stock";

import { getLocation } from "./read-location";
import { ofLocation } from "./records";

/** Refused while it holds stock or has child locations; its empty stock rows go with it. */
export async function deleteLocation(tdb: TenantDb, id: string) {
  const location = await getLocation(tdb, id);
  const children = tdb.db
    .select({ one: sql`1` })
    .from(locations)
    .where(inTenant(tdb, locations, eq(locations.parentId, id)));
  const blocked = sql`(${holdsStock(tdb, eq(stockLevels.locationId, id))} or ${exists(children)})`;
  const emptyLevels = and(eq(stockLevels.locationId, id), not(blocked)) as SQL;
  const { location: removed } = await runBatch(tdb, {
    kept: keepDeletedLevels(tdb, emptyLevels, new Date().toISOString()),
    stock: tdb.db.delete(stockLevels).where(inTenant(tdb, stockLevels, emptyLevels)),
    location: tdb.db.delete(locations).where(and(ofLocation(tdb, id), not(blocked))),
  });
  if (removed.meta.changes === 0) throw conflict("The location holds stock or has child locations");
  return location;
}
