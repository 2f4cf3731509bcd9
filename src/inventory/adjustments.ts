import { sql } from "drizzle-orm";
import { uuidv7 } from "uuidv7";
import type { Actor } from "../auth/principal";
import { runBatch } from "../db/batch";
import type { TenantDb } from "../db/client";
import { insufficientStock, isStockShortage } from "./insufficient-stock";
import { lowStockEvent } from "./low-stock-event";
import type { AdjustmentBody, MovementRecord, StockLevelRecord } from "./schemas";
import {
  addStock,
  atLevel,
  ledgerRow,
  levelJson,
  levelSnapshot,
  movementSnapshot,
  removeStock,
} from "./stock-statements";
import { assertReceivable, loadTargets } from "./targets";

/**
 * `POST /inventory/adjustments`: one batch holding the stock change, its ledger row, its
 * `inventory.adjusted` event and, when available drops to the reorder point, `inventory.low_stock`.
 */
export async function adjustStock(tdb: TenantDb, actor: Actor, input: AdjustmentBody) {
  const targets = await loadTargets(tdb, input.productId, [input.locationId]);
  const location = targets.location(input.locationId);
  if (input.quantity > 0) assertReceivable(location);
  const level = { productId: input.productId, locationId: input.locationId };
  const now = new Date().toISOString();
  const movementId = uuidv7();
  const eventId = uuidv7();
  const levelExists = sql`exists (select 1 from stock_levels where ${atLevel(tdb, level)})`;
  const lowStock = lowStockEvent(tdb, input.productId, -input.quantity, now, levelExists);
  const change =
    input.quantity > 0
      ? addStock(tdb, { ...level, warehouseId: location.warehouseId }, input.quantity, now)
      : removeStock(tdb, level, -input.quantity, now);
  const ctx = {
    ...actor,
    reason: input.reason,
    referenceType: null,
    referenceId: null,
    notes: input.notes ?? null,
    now,
  };
  let results: D1Result[];
  try {
    results = await runBatch(tdb, [
      change,
      ledgerRow(tdb, movementId, level, input.quantity, ctx),
      sql`insert into outbox_events (id, tenant_id, type, payload, created_at)
        select ${eventId}, ${tdb.tenantId}, 'inventory.adjusted',
          json_object('movementId', ${movementId}, 'productId', ${input.productId}, 'delta', ${input.quantity},
            'reason', ${input.reason}, 'stockLevel', json(${levelJson(tdb, level)})), ${now}
        where ${levelExists}`,
      ...(input.quantity < 0 ? [lowStock.query] : []),
      levelSnapshot(tdb, level),
      movementSnapshot(tdb, [movementId]),
    ]);
  } catch (error) {
    if (isStockShortage(error)) throw await insufficientStock(tdb, level, -input.quantity, "quantity");
    throw error;
  }
  // A removal from a level that does not exist changed nothing: there is no stock there at all.
  if (results[0]?.meta.changes === 0) throw await insufficientStock(tdb, level, -input.quantity, "quantity");
  const lowStockRaised = input.quantity < 0 && results[3]?.meta.changes === 1;
  const stockLevel = results.at(-2)?.results[0] as StockLevelRecord;
  const movement = results.at(-1)?.results[0] as MovementRecord;
  return { movement, stockLevel, eventIds: lowStockRaised ? [eventId, lowStock.id] : [eventId] };
}
