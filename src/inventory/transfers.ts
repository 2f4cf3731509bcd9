import { sql } from "drizzle-orm";
import { uuidv7 } from "uuidv7";
import type { Actor } from "../auth/principal";
import { changesOf, onlyRow, runBatch } from "../db/batch";
import type { TenantDb } from "../db/client";
import { eventRow } from "../events/outbox";
import { insufficientStock, isStockShortage } from "./insufficient-stock";
import { isOverCeiling, overCeiling } from "./level-ceiling";
import type { TransferBody } from "./schemas";
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
 * `POST /inventory/transfers`: both sides in one batch, or neither. The source's CHECKs refuse a
 * transfer of more than is available; the destination is only credited if the source level exists.
 */
export async function transferStock(tdb: TenantDb, actor: Actor, input: TransferBody) {
  const targets = await loadTargets(tdb, input.productId, [input.fromLocationId, input.toLocationId]);
  const destination = targets.location(input.toLocationId);
  assertReceivable(destination);
  const from = { productId: input.productId, locationId: input.fromLocationId };
  const to = { productId: input.productId, locationId: input.toLocationId };
  const now = new Date().toISOString();
  const transferId = uuidv7();
  const movementIds = [uuidv7(), uuidv7()] as const;
  const ctx = {
    ...actor,
    reason: "transfer",
    referenceType: "transfer",
    referenceId: transferId,
    notes: input.notes ?? null,
    now,
  };
  const sourceExists = levelExists(tdb, from);
  const transferred = sql`json_object('transferId', ${transferId}, 'productId', ${input.productId},
    'quantity', ${input.quantity}, 'from', json(${levelJson(tdb, from)}), 'to', json(${levelJson(tdb, to)}))`;
  const written = await runBatch(tdb, {
    removal: changeLevel(tdb, from, { onHand: -input.quantity }, now),
    removalLedger: ledgerRow(tdb, movementIds[0], from, -input.quantity, ctx),
    addition: addStock(
      tdb,
      { ...to, warehouseId: destination.warehouseId },
      input.quantity,
      now,
      sourceExists,
    ),
    additionLedger: ledgerRow(tdb, movementIds[1], to, input.quantity, ctx, sourceExists),
    transferred: eventRow(tdb, "inventory.transferred", transferred, now, { onlyIf: sourceExists }),
    from: levelSnapshot(tdb, from),
    to: levelSnapshot(tdb, to),
    movements: movementSnapshot(tdb, movementIds),
  }).catch(async (error) => {
    if (isStockShortage(error)) throw await insufficientStock(tdb, from, input.quantity, "quantity");
    if (isOverCeiling(error))
      throw await overCeiling(tdb, [{ ...to, quantity: input.quantity, field: "quantity" }]);
    throw error;
  });
  if (changesOf(written.removal) === 0) throw await insufficientStock(tdb, from, input.quantity, "quantity");
  return {
    transferId,
    from: onlyRow(written.from),
    to: onlyRow(written.to),
    movements: written.movements,
  };
}
