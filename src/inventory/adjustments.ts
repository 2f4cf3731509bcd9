import { sql } from "drizzle-orm";
import { uuidv7 } from "uuidv7";
import type { Actor } from "../auth/principal";
import { changesOf, onlyRow, runBatch } from "../db/batch";
import type { TenantDb } from "../db/client";
import { eventRow } from "../events/outbox";
import { insufficientStock, isStockShortage } from "./insufficient-stock";
import { isOverCeiling, overCeiling } from "./level-ceiling";
import { lowStockEvent } from "./low-stock-event";
import type { AdjustmentBody } from "./schemas";
import {
  addStock,
  changeLevel,
  ledgerRow,
  levelExists,
  levelJson,
  levelSnapshot,
  movementSnapshot,
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
  const exists = levelExists(tdb, level);
  const change =
    input.quantity > 0
      ? addStock(tdb, { ...level, warehouseId: location.warehouseId }, input.quantity, now)
      : changeLevel(tdb, level, { onHand: input.quantity }, now);
  const ctx = {
    ...actor,
    reason: input.reason,
    referenceType: null,
    referenceId: null,
    notes: input.notes ?? null,
    now,
  };
  const adjusted = sql`json_object('movementId', ${movementId}, 'productId', ${input.productId},
    'delta', ${input.quantity}, 'reason', ${input.reason}, 'stockLevel', json(${levelJson(tdb, level)}))`;
  const written = await runBatch(tdb, {
    change,
    ledger: ledgerRow(tdb, movementId, level, input.quantity, ctx),
    adjusted: eventRow(tdb, "inventory.adjusted", adjusted, now, { onlyIf: exists }),
    lowStock:
      input.quantity < 0 ? lowStockEvent(tdb, input.productId, -input.quantity, now, exists) : undefined,
    stockLevel: levelSnapshot(tdb, level),
    movement: movementSnapshot(tdb, [movementId]),
  }).catch(async (error) => {
    if (isStockShortage(error)) throw await insufficientStock(tdb, level, -input.quantity, "quantity");
    if (isOverCeiling(error))
      throw await overCeiling(tdb, [{ ...level, quantity: input.quantity, field: "quantity" }]);
    throw error;
  });
  // A removal from a level that does not exist changed nothing: there is no stock there at all.
  if (changesOf(written.change) === 0) throw await insufficientStock(tdb, level, -input.quantity, "quantity");
  return { movement: onlyRow(written.movement), stockLevel: onlyRow(written.stockLevel) };
}
