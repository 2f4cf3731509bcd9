import { eq, type SQL, sql } from "drizzle-orm";
import type { TenantDb } from "../db/client";
import { products as p, stockLevels } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import { eventRow } from "../events/outbox";

/**
 * An `inventory.low_stock` outbox row, written only if this change took the product's available stock
 * (across all its locations) from above its reorder point to at or below it. Evaluated inside the
 * batch, so it sees exactly the committed figures.
 */
export function lowStockEvent(
  tdb: TenantDb,
  productId: string,
  drop: number,
  now: string,
  guard: SQL = sql`1`,
) {
  const payload = sql`json_object('productId', ${p.id}, 'sku', ${p.sku}, 'name', ${p.name},
    'reorderPoint', ${p.reorderPoint}, 'onHand', t.on_hand, 'reserved', t.reserved, 'available', t.on_hand - t.reserved)`;
  return eventRow(tdb, "inventory.low_stock", payload, now, {
    from: sql`from ${p},
      (select coalesce(sum(${stockLevels.onHand}), 0) as on_hand, coalesce(sum(${stockLevels.reserved}), 0) as reserved
         from ${stockLevels} where ${inTenant(tdb, stockLevels, eq(stockLevels.productId, productId))}) t`,
    onlyIf: sql`${inTenant(tdb, p, eq(p.id, productId))}
      and t.on_hand - t.reserved <= ${p.reorderPoint}
      and t.on_hand - t.reserved + ${drop} > ${p.reorderPoint}
      and ${guard}`,
  });
}
