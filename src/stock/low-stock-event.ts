import { type SQL, sql } from "drizzle-orm";
import type { EventStatement } from "../db/batch";
import type { TenantDb } from "../db/client";
import { lots, products as p, stockLevels } from "../db/schema/tenant";
import { compiledSelectedEventRows, type SelectedEvents, selectedEventRows } from "../outbox/outbox";
import { availableUnits, today } from "./expiry";
import { type Level, levelExists, lotKey } from "./statements";

/** Units a write took from a level's available stock (its lot's id; absent for stock without a lot). */
export interface Drop {
  lotId?: string;
  units: number;
}

/** What a write took from one product's available stock. */
export interface ProductDrops {
  productId: string;
  drops: readonly Drop[];
}

/**
 * What makes a row of taken stock an `inventory.low_stock` event: its product's available stock (across all its
 * locations) went from above its reorder point to at or below it, and `guard` holds. Only unexpired stock is
 * available (src/stock/expiry.ts), so units taken from an expired lot were not available before either.
 */
function lowStockSelection(tdb: TenantDb, day: string, guard: SQL): SelectedEvents {
  const dropped = sql`(select coalesce(sum(d.value ->> 'units'), 0) from json_each(j.value -> 'drops') d
    left join ${lots} on ${lots.tenantId} = ${tdb.tenantId} and ${lots.id} = d.value ->> 'lotId'
    where ${lots.expiresAt} is null or ${lots.expiresAt} > ${day})`;
  return {
    payload: sql`json_object('productId', ${p.id}, 'sku', ${p.sku}, 'name', ${p.name},
      'reorderPoint', ${p.reorderPoint}, 'onHand', t.on_hand, 'reserved', t.reserved,
      'expired', t.on_hand - t.reserved - t.available, 'available', t.available)`,
    // The product's totals, for every product of the part at once.
    from: (rows) => sql`join ${p} on ${p.tenantId} = ${tdb.tenantId} and ${p.id} = j.value ->> 'productId'
      join (select ${stockLevels.productId} as product_id, sum(${stockLevels.onHand}) as on_hand,
          sum(${stockLevels.reserved}) as reserved, sum(${availableUnits(stockLevels, lots.expiresAt, day)}) as available
        from ${stockLevels} left join ${lots} on ${lots.tenantId} = ${stockLevels.tenantId} and ${lots.id} = ${stockLevels.lotId}
        where ${stockLevels.tenantId} = ${tdb.tenantId}
          and ${stockLevels.productId} in (select value ->> 'productId' from json_each(${rows}))
        group by ${stockLevels.productId}) t on t.product_id = ${p.id}`,
    onlyIf: sql`t.available <= ${p.reorderPoint} and t.available + ${dropped} > ${p.reorderPoint} and ${guard}`,
  };
}

/** `lowStockSelection` compiled once per isolate, unguarded or guarded by a level's existence. */
const compiledLowStock = compiledSelectedEventRows(
  "inventory.low_stock",
  (
    tdb,
    v: { day: string; productId: string | null; locationId: string | null; lotId: string | null },
    k: { whileLevelExists: boolean },
  ) =>
    lowStockSelection(
      tdb,
      v.day,
      k.whileLevelExists
        ? levelExists(tdb, { productId: v.productId, locationId: v.locationId, lotId: v.lotId } as Level)
        : sql`1`,
    ),
);

/**
 * `inventory.low_stock` outbox rows, one for each product whose available stock this change took from above its
 * reorder point to at or below it (lowStockSelection), written only while `guard` holds. Evaluated inside the
 * batch, so it sees exactly the committed figures; a few statements whatever the products' number.
 */
export function lowStockEvents(
  tdb: TenantDb,
  taken: readonly ProductDrops[],
  now: string,
  guard?: SQL,
): EventStatement[] {
  const day = today();
  return guard
    ? selectedEventRows(tdb, "inventory.low_stock", taken, now, lowStockSelection(tdb, day, guard))
    : compiledLowStock(tdb, taken, now, { day, productId: null, locationId: null, lotId: null });
}

/**
 * The `inventory.low_stock` row of a change that took stock of one product (see lowStockEvents), written only
 * while `whileLevelExists` exists when given (a removal from a level that does not exist changes nothing).
 */
export const lowStockEvent = (
  tdb: TenantDb,
  productId: string,
  drops: readonly Drop[],
  now: string,
  whileLevelExists?: Level,
): EventStatement[] =>
  whileLevelExists
    ? compiledLowStock(
        tdb,
        [{ productId, drops }],
        now,
        {
          day: today(),
          productId: whileLevelExists.productId,
          locationId: whileLevelExists.locationId,
          lotId: lotKey(whileLevelExists),
        },
        { whileLevelExists: true },
      )
    : lowStockEvents(tdb, [{ productId, drops }], now);
