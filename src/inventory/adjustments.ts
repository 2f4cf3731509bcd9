import { sql } from "drizzle-orm";
import { uuidv7 } from "uuidv7";
import type { Actor } from "../auth/principal";
import { changesOf, onlyRow, runBatch } from "../db/batch";
import type { TenantDb } from "../db/client";
import { eventRow } from "../outbox/outbox";
import { insufficientStock } from "../stock/insufficient-stock";
import { lowStockEvent } from "../stock/low-stock-event";
import { type InUnits, inBaseUnits } from "../stock/packs";
import { releaseExpiredHolds } from "../stock/reservations";
import {
  addStock,
  changeLevel,
  ledgerRow,
  levelExists,
  levelJson,
  levelSnapshot,
  movementSnapshot,
} from "../stock/statements";
import { assertReceivable, loadStockTargets } from "../stock/targets";
import { receiveSerials, takeSerials } from "../stock/tracked-stock";
import { answerFailedStockWrite, resolveTrackedStock } from "../stock/write";
import type { AdjustmentBody } from "./schemas";

/**
 * `POST /inventory/adjustments`: one batch holding the stock change, its ledger row, its
 * `inventory.adjusted` event and, when available drops to the reorder point, `inventory.low_stock`.
 * A tracked product's change names its lot (a new lot is created on an addition) or its serial numbers.
 */
export async function adjustStock(tdb: TenantDb, actor: Actor, body: AdjustmentBody) {
  const [input] = (await inBaseUnits(tdb, [body])) as [InUnits<AdjustmentBody>];
  const now = new Date().toISOString();
  const targets = await loadStockTargets(tdb, input.productId, [input.locationId], now);
  const { product } = targets;
  const location = targets.location(input.locationId);
  const adds = input.quantity > 0;
  if (adds) assertReceivable(location);
  const at = { locationId: location.id, locationCode: location.code, warehouseId: location.warehouseId };
  const expect = adds ? { mode: "add" as const } : { mode: "take" as const, ...at };
  const { lotId, serials } = await resolveTrackedStock(tdb, product, input, expect);
  const level = { productId: input.productId, locationId: input.locationId, lotId };
  const movementId = uuidv7();
  const exists = levelExists(tdb, level);
  const change = adds
    ? addStock(tdb, { ...level, warehouseId: location.warehouseId }, input.quantity, now)
    : changeLevel(tdb, level, { onHand: input.quantity }, now);
  const ctx = {
    ...actor,
    reason: input.reason,
    referenceType: null,
    referenceId: null,
    notes: input.notes ?? null,
    serialNumbers: serials,
    now,
  };
  const adjusted = sql`json_object('movementId', ${movementId}, 'productId', ${input.productId},
    'delta', ${input.quantity}, 'reason', ${input.reason}, 'lotNumber', ${input.lotNumber ?? null},
    'serialNumbers', json(${serials ? JSON.stringify(serials) : null}), 'stockLevel', json(${levelJson(tdb, level)}))`;
  const written = await runBatch(tdb, {
    expiredHolds: input.quantity < 0 ? releaseExpiredHolds(tdb, targets.expiredHolds, now) : undefined,
    change,
    serials: serials
      ? adds
        ? receiveSerials(tdb, product.id, at, serials, now)
        : takeSerials(tdb, product.id, location.id, serials, now, undefined, exists)
      : undefined,
    ledger: ledgerRow(tdb, movementId, level, input.quantity, ctx),
    adjusted: eventRow(tdb, "inventory.adjusted", adjusted, now, { onlyIf: exists }),
    lowStock: adds
      ? undefined
      : lowStockEvent(tdb, input.productId, [{ lotId: level.lotId, units: -input.quantity }], now, exists),
    stockLevel: levelSnapshot(tdb, level),
    movement: movementSnapshot(tdb, [movementId]),
  }).catch(async (error) => {
    throw await answerFailedStockWrite(tdb, error, {
      take: { level, quantity: -input.quantity },
      add: { level, quantity: input.quantity },
      serials: { productId: product.id, numbers: serials, expect },
    });
  });
  // A removal from a level that does not exist changed nothing: there is no stock there at all.
  if (changesOf(written.change) === 0) throw await insufficientStock(tdb, level, -input.quantity, "quantity");
  return { movement: onlyRow(written.movement), stockLevel: onlyRow(written.stockLevel) };
}
