import { and, eq, not } from "drizzle-orm";
import { runBatch } from "../db/batch";
import type { TenantDb } from "../db/client";
import { locations, stockLevels, warehouses } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import { conflict } from "../http/errors";
import { holdsStock } from "../stock/statements";
import { getWarehouse } from "./read-warehouse";
import { ofWarehouse } from "./records";

/** Refused while any of its locations holds stock; otherwise its empty locations go with it. */
export async function deleteWarehouse(tdb: TenantDb, id: string) {
  const warehouse = await getWarehouse(tdb, id);
  const empty = not(holdsStock(tdb, eq(stockLevels.warehouseId, id)));
  const { warehouse: removed } = await runBatch(tdb, {
    stock: tdb.db
      .delete(stockLevels)
      .where(inTenant(tdb, stockLevels, eq(stockLevels.warehouseId, id), empty)),
    locations: tdb.db.delete(locations).where(inTenant(tdb, locations, eq(locations.warehouseId, id), empty)),
    warehouse: tdb.db.delete(warehouses).where(and(ofWarehouse(tdb, id), empty)),
  });
  if (removed.meta.changes === 0) throw conflict("The warehouse holds stock; move or adjust it out first");
  return warehouse;
}
