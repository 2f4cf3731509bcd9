import { eq, type SQL, sql } from "drizzle-orm";
import type { TenantDb } from "../db/client";
import { lots, products as p, stockLevels } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import { eventRow } from "../outbox/outbox";
import { availableUnits, today } from "./expiry";

/** Units a write took from a level's available stock (its lot's id; absent for stock without a lot). */
export interface Drop {
  lotId?: string;
  units: number;
}

/**
 * An `inventory.low_stock` outbox row, written only if this change took the product's available stock
 * (across all its locations) from above its reorder point to at or below it. Only unexpired stock is
 * available (src/stock/expiry.ts), so units taken from an expired lot were not available before either.
 * Evaluated inside the batch, so it sees exactly the committed figures.
 */
export function lowStockEvent(
  tdb: TenantDb,
  productId: string,
  drops: readonly Drop[],
  now: string,
  guard: SQL = sql`1`,
) {
  const day = today();
  const dropped = sql`(select coalesce(sum(d.value ->> 'units'), 0) from json_each(${JSON.stringify(drops)}) d
    left join ${lots} on ${inTenant(tdb, lots, sql`${lots.id} = d.value ->> 'lotId'`)}
    where ${lots.expiresAt} is null or ${lots.expiresAt} > ${day})`;
  const payload = sql`json_object('productId', ${p.id}, 'sku', ${p.sku}, 'name', ${p.name},
    'reorderPoint', ${p.reorderPoint}, 'onHand', t.on_hand, 'reserved', t.reserved, 'expired', t.on_hand - t.reserved - t.available,
    'available', t.available)`;
  return eventRow(tdb, "inventory.low_stock", payload, now, {
    from: sql`from ${p},
      (select coalesce(sum(${stockLevels.onHand}), 0) as on_hand, coalesce(sum(${stockLevels.reserved}), 0) as reserved,
          coalesce(sum(${availableUnits(stockLevels, lots.expiresAt, day)}), 0) as available
         from ${stockLevels} left join ${lots} on ${inTenant(tdb, lots, eq(lots.id, stockLevels.lotId))}
         where ${inTenant(tdb, stockLevels, eq(stockLevels.productId, productId))}) t`,
    onlyIf: sql`${inTenant(tdb, p, eq(p.id, productId))}
      and t.available <= ${p.reorderPoint}
      and t.available + ${dropped} > ${p.reorderPoint}
      and ${guard}`,
  });
}
