import { asc, eq, inArray, sql } from "drizzle-orm";
import type { TenantDb } from "../db/client";
import { stockLevels, stockMovements } from "../db/schema";
import { selectMovements, selectStockLevels } from "./projections";

// Raw statements shared by adjustments and transfers, run inside one D1 batch (see runBatch).
// Removal is never guarded in SQL on purpose: the stock_levels CHECKs (on_hand >= 0 and
// reserved <= on_hand) are the guard, and a violation rolls back the whole batch of the loser.

export interface Level {
  productId: string;
  locationId: string;
}

export interface LedgerContext {
  reason: string;
  referenceType: string | null;
  referenceId: string | null;
  notes: string | null;
  actorType: "user" | "api_key";
  actorId: string;
  requestId: string;
  now: string;
}

export const atLevel = (tdb: TenantDb, l: Level) =>
  sql`tenant_id = ${tdb.tenantId} and product_id = ${l.productId} and location_id = ${l.locationId}`;

/** Adds stock, creating the level on first use. `onlyIf` lets a transfer add only when its source exists. */
export function addStock(
  tdb: TenantDb,
  l: Level & { warehouseId: string },
  quantity: number,
  now: string,
  onlyIf = sql`1`,
) {
  return sql`insert into stock_levels (tenant_id, product_id, location_id, warehouse_id, on_hand, reserved, updated_at)
    select ${tdb.tenantId}, ${l.productId}, ${l.locationId}, ${l.warehouseId}, ${quantity}, 0, ${now} where ${onlyIf}
    on conflict (tenant_id, product_id, location_id)
    do update set on_hand = on_hand + excluded.on_hand, updated_at = excluded.updated_at`;
}

/** Removes stock from an existing level (0 rows changed when the level does not exist). */
export function removeStock(tdb: TenantDb, l: Level, quantity: number, now: string) {
  return sql`update stock_levels set on_hand = on_hand - ${quantity}, updated_at = ${now} where ${atLevel(tdb, l)}`;
}

/** The ledger row of a change already applied: on_hand_after is read from the level in the same batch. */
export function ledgerRow(
  tdb: TenantDb,
  id: string,
  l: Level,
  delta: number,
  ctx: LedgerContext,
  onlyIf = sql`1`,
) {
  return sql`insert into stock_movements (id, tenant_id, product_id, location_id, warehouse_id, delta, on_hand_after,
      reason, reference_type, reference_id, notes, actor_type, actor_id, request_id, created_at)
    select ${id}, tenant_id, product_id, location_id, warehouse_id, ${delta}, on_hand, ${ctx.reason},
      ${ctx.referenceType}, ${ctx.referenceId}, ${ctx.notes}, ${ctx.actorType}, ${ctx.actorId}, ${ctx.requestId}, ${ctx.now}
    from stock_levels where ${atLevel(tdb, l)} and ${onlyIf}`;
}

/** A level's figures as a JSON object, for event payloads built inside the batch. */
export const levelJson = (tdb: TenantDb, l: Level) =>
  sql`(select json_object('locationId', location_id, 'warehouseId', warehouse_id, 'onHand', on_hand,
      'reserved', reserved, 'available', on_hand - reserved) from stock_levels where ${atLevel(tdb, l)})`;

/** A level as the API shows it, read at the end of the write batch so it shows exactly what committed. */
export const levelSnapshot = (tdb: TenantDb, l: Level) =>
  selectStockLevels(tdb, eq(stockLevels.productId, l.productId), eq(stockLevels.locationId, l.locationId));

/** Ledger rows by id, as the API shows them. */
export const movementSnapshot = (tdb: TenantDb, ids: readonly string[]) =>
  selectMovements(tdb, inArray(stockMovements.id, [...ids])).orderBy(asc(stockMovements.id));
