import { type SQL, sql } from "drizzle-orm";
import type { TenantDb } from "../db/client";
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
  const payload = sql`json_object('productId', p.id, 'sku', p.sku, 'name', p.name, 'reorderPoint', p.reorder_point,
    'onHand', t.on_hand, 'reserved', t.reserved, 'available', t.on_hand - t.reserved)`;
  return eventRow(tdb, "inventory.low_stock", payload, now, {
    from: sql`from products p,
      (select coalesce(sum(on_hand), 0) as on_hand, coalesce(sum(reserved), 0) as reserved
         from stock_levels where tenant_id = ${tdb.tenantId} and product_id = ${productId}) t`,
    onlyIf: sql`p.tenant_id = ${tdb.tenantId} and p.id = ${productId}
      and t.on_hand - t.reserved <= p.reorder_point
      and t.on_hand - t.reserved + ${drop} > p.reorder_point
      and ${guard}`,
  });
}
