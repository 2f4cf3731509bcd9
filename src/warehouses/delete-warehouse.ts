import { and, eq, not, type SQL } from "drizzle-orm";
import { runBatch } from "../db/batch";
import type { TenantDb } from "../db/client";
import { locations, stockLevels, warehouses } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import { conflict } from "../http/errors";
import { holdsStock, keepDeletedLevels } from "../stock";

import { getWarehouse } from "./read-warehouse";
import { ofWarehouse } from "./records";

/** Refused while any of its locations holds stock; otherwise its empty locations go with it. */
export async function deleteWarehouse(tdb: TenantDb, id: string) {
  const warehouse = await getWarehouse(tdb, id);
  const empty = not(holdsStock(tdb, eq(stockLevels.warehouseId, id)));
  const emptyLevels = and(eq(stockLevels.warehouseId, id), empty) as SQL;
  const { warehouse: removed } = await runBatch(tdb, {
    kept: keepDeletedLevels(tdb, emptyLevels, new Date().toISOString()),
    stock: tdb.db.delete(stockLevels).where(inTenant(tdb, stockLevels, emptyLevels)),
    locations: tdb.db.delete(locations).where(inTenant(tdb, locations, eq(locations.warehouseId, id), empty)),
    warehouse: tdb.db.delete(warehouses).where(and(ofWarehouse(tdb, id), empty)),
  });
  if (removed.meta.changes === 0) throw conflict("The warehouse holds stock; move or adjust it out first");
  return warehouse;
}
