import { sql } from "drizzle-orm";
import { uuidv7 } from "uuidv7";
import type { Actor } from "../auth/principal";
import { changesOf, onlyRow, runBatch } from "../db/batch";
import type { TenantDb } from "../db/client";
import { compiledEventRow } from "../outbox/outbox";
import {
  answerFailedStockWrite,
  assertReceivable,
  givenReason,
  type InUnits,
  inBaseUnits,
  insufficientStock,
  issue,
  levelExists,
  levelJson,
  levelSnapshot,
  loadStockTargets,
  lotKey,
  lowStockEvent,
  movementSnapshot,
  plainTargetsGuard,
  receive,
  releaseExpiredHolds,
  resolveTrackedStock,
  type StockWriteTarget,
  uncheckedOrChecked,
  untrackedStock,
} from "../stock";

import type { AdjustmentBody } from "./schemas";

/**
 * `POST /inventory/adjustments`: one batch holding the stock change, its ledger row, its
 * `inventory.adjusted` event and, when available drops to the reorder point, `inventory.low_stock`.
 * A plain adjustment (units of an untracked product) is that batch alone, checking its product and location
 * itself; any other reads them first. A tracked product's change names its lot (a new lot is created on an
 * addition) or its serial numbers.
 */
export async function adjustStock(tdb: TenantDb, actor: Actor, body: AdjustmentBody) {
  const { productId, locationId } = body;
  return uncheckedOrChecked(
    body,
    (quantity, now) =>
      writeAdjustment(tdb, actor, { ...body, quantity }, now, {
        guard: plainTargetsGuard(
          tdb,
          quantity > 0 ? { productId, putsInto: locationId } : { productId, takesFrom: locationId },
          now,
        ),
        warehouseId: null,
        ...untrackedStock,
      }),
    () => readAndAdjust(tdb, actor, body),
  );
}

/** The adjustment whose product and location (and lot, serials, packs) are read and checked before its batch. */
async function readAndAdjust(tdb: TenantDb, actor: Actor, body: AdjustmentBody) {
  const [input] = (await inBaseUnits(tdb, [body])) as [InUnits<AdjustmentBody>];
  const now = new Date().toISOString();
  const targets = await loadStockTargets(tdb, input.productId, [input.locationId], now);
  const { product } = targets;
  const location = targets.location(input.locationId);
  const adds = input.quantity > 0;
  if (adds) assertReceivable(location);
  const expect = adds
    ? { mode: "add" as const }
    : { mode: "take" as const, locationId: location.id, locationCode: location.code };
  const { lotId, serials } = await resolveTrackedStock(tdb, product, input, expect);
  return writeAdjustment(tdb, actor, input, now, {
    warehouseId: location.warehouseId,
    lotId,
    serials: serials && { numbers: serials, expect },
    expiredHolds: input.quantity < 0 ? targets.expiredHolds : [],
  });
}

/** `inventory.adjusted`, written only when the level exists after the change (a removal from none changes nothing). */
const adjustedEvent = compiledEventRow(
  "inventory.adjusted",
  (
    tdb,
    v: {
      movementId: string;
      productId: string;
      locationId: string;
      lotId: string;
      delta: number;
      reason: string;
      lotNumber: string | null;
      serialNumbers: string | null;
    },
  ) => {
    const level = { productId: v.productId, locationId: v.locationId, lotId: v.lotId };
    return {
      payload: sql`json_object('movementId', ${v.movementId}, 'productId', ${v.productId},
        'delta', ${v.delta}, 'reason', ${v.reason}, 'lotNumber', ${v.lotNumber},
        'serialNumbers', json(${v.serialNumbers}), 'stockLevel', json(${levelJson(tdb, level)}))`,
      onlyIf: levelExists(tdb, level),
    };
  },
);

/** Where an adjustment writes (its warehouse null when read in the batch, from the location). */
type AdjustmentTarget = StockWriteTarget & { warehouseId: string | null };

async function writeAdjustment(
  tdb: TenantDb,
  actor: Actor,
  input: InUnits<AdjustmentBody>,
  now: string,
  target: AdjustmentTarget,
) {
  const { lotId } = target;
  const serials = target.serials?.numbers ?? null;
  const adds = input.quantity > 0;
  const level = { productId: input.productId, locationId: input.locationId, lotId };
  const movementId = uuidv7();
  const why = {
    ...actor,
    reason: givenReason(input.reason),
    referenceType: null,
    referenceId: null,
    notes: input.notes ?? null,
    now,
  };
  const line = { ...level, quantity: Math.abs(input.quantity), serialNumbers: serials };
  const stock = adds
    ? receive(tdb, { ...line, warehouseId: target.warehouseId }, why, { movementId })
    : issue(tdb, line, why, { movementId });
  const adjusted = {
    movementId,
    productId: input.productId,
    locationId: input.locationId,
    lotId: lotKey(level),
    delta: input.quantity,
    reason: input.reason,
    lotNumber: input.lotNumber ?? null,
    serialNumbers: serials ? JSON.stringify(serials) : null,
  };
  const written = await runBatch(tdb, {
    guard: target.guard,
    expiredHolds: releaseExpiredHolds(tdb, target.expiredHolds, now),
    ...stock,
    adjusted: adjustedEvent(tdb, adjusted, now),
    lowStock: adds
      ? undefined
      : lowStockEvent(tdb, input.productId, [{ lotId: level.lotId, units: -input.quantity }], now, level),
    stockLevel: levelSnapshot(tdb, level),
    movement: movementSnapshot(tdb, [movementId]),
  }).catch(async (error) => {
    throw await answerFailedStockWrite(tdb, error, {
      take: { level, quantity: -input.quantity },
      add: { level, quantity: input.quantity },
      serials: target.serials && { productId: input.productId, ...target.serials },
    });
  });
  // A removal from a level that does not exist changed nothing: there is no stock there at all.
  if (changesOf(written.level) === 0) throw await insufficientStock(tdb, level, -input.quantity, "quantity");
  return { movement: onlyRow(written.movement), stockLevel: onlyRow(written.stockLevel) };
}
