import { sql } from "drizzle-orm";
import { uuidv7 } from "uuidv7";
import type { Actor } from "../auth/principal";
import { changesOf, onlyRow, runBatch } from "../db/batch";
import type { TenantDb } from "../db/client";
import { compiledEventRow } from "../outbox/outbox";
import {
  answerFailedStockWrite,
  assertReceivable,
  type InUnits,
  inBaseUnits,
  insufficientStock,
  levelExists,
  levelJson,
  levelSnapshot,
  loadStockTargets,
  lotKey,
  move,
  movementSnapshot,
  plainTargetsGuard,
  releaseExpiredHolds,
  resolveTrackedStock,
  type StockWriteTarget,
  uncheckedOrChecked,
  untrackedStock,
} from "../stock";

import type { TransferBody } from "./schemas";

/**
 * `POST /inventory/transfers`: both sides in one batch, or neither. The source's CHECKs refuse a
 * transfer of more than is available; the destination is only credited if the source level exists.
 * A plain transfer (units of an untracked product) is that batch alone, checking its product and locations
 * itself; any other reads them first. A lot moves as itself (the destination's level of the same lot); serials
 * move with their units.
 */
export async function transferStock(tdb: TenantDb, actor: Actor, body: TransferBody) {
  const { productId, fromLocationId, toLocationId } = body;
  return uncheckedOrChecked(
    body,
    (quantity, now) =>
      writeTransfer(tdb, actor, { ...body, quantity }, now, {
        guard: plainTargetsGuard(tdb, { productId, takesFrom: fromLocationId, putsInto: toLocationId }, now),
        destinationWarehouseId: null,
        ...untrackedStock,
      }),
    () => readAndTransfer(tdb, actor, body),
  );
}

/** The transfer whose product and locations (and lot, serials, packs) are read and checked before its batch. */
async function readAndTransfer(tdb: TenantDb, actor: Actor, body: TransferBody) {
  const [input] = (await inBaseUnits(tdb, [body])) as [InUnits<TransferBody>];
  const now = new Date().toISOString();
  const targets = await loadStockTargets(
    tdb,
    input.productId,
    [input.fromLocationId, input.toLocationId],
    now,
  );
  const { product } = targets;
  const source = targets.location(input.fromLocationId);
  const destination = targets.location(input.toLocationId);
  assertReceivable(destination);
  const expect = { mode: "take" as const, locationId: source.id, locationCode: source.code };
  const { lotId, serials } = await resolveTrackedStock(tdb, product, input, expect);
  return writeTransfer(tdb, actor, input, now, {
    destinationWarehouseId: destination.warehouseId,
    lotId,
    serials: serials && { numbers: serials, expect },
    expiredHolds: targets.expiredHolds,
  });
}

/** `inventory.transferred`, written only when the source level exists (a transfer from none changes nothing). */
const transferredEvent = compiledEventRow(
  "inventory.transferred",
  (
    tdb,
    v: {
      transferId: string;
      productId: string;
      fromLocationId: string;
      toLocationId: string;
      lotId: string;
      quantity: number;
      lotNumber: string | null;
      serialNumbers: string | null;
    },
  ) => {
    const from = { productId: v.productId, locationId: v.fromLocationId, lotId: v.lotId };
    const to = { ...from, locationId: v.toLocationId };
    return {
      payload: sql`json_object('transferId', ${v.transferId}, 'productId', ${v.productId},
        'quantity', ${v.quantity}, 'lotNumber', ${v.lotNumber}, 'serialNumbers', json(${v.serialNumbers}),
        'from', json(${levelJson(tdb, from)}), 'to', json(${levelJson(tdb, to)}))`,
      onlyIf: levelExists(tdb, from),
    };
  },
);

/** Where a transfer puts stock (its warehouse null when read in the batch, from the location). */
type TransferTarget = StockWriteTarget & { destinationWarehouseId: string | null };

async function writeTransfer(
  tdb: TenantDb,
  actor: Actor,
  input: InUnits<TransferBody>,
  now: string,
  target: TransferTarget,
) {
  const { lotId } = target;
  const serials = target.serials?.numbers ?? null;
  const from = { productId: input.productId, locationId: input.fromLocationId, lotId };
  const to = { productId: input.productId, locationId: input.toLocationId, lotId };
  const transferId = uuidv7();
  const movementIds = [uuidv7(), uuidv7()] as const;
  const why = {
    ...actor,
    reason: "transfer" as const,
    referenceType: "transfer",
    referenceId: transferId,
    notes: input.notes ?? null,
    now,
  };
  const transferred = {
    transferId,
    productId: input.productId,
    fromLocationId: input.fromLocationId,
    toLocationId: input.toLocationId,
    lotId: lotKey(from),
    quantity: input.quantity,
    lotNumber: input.lotNumber ?? null,
    serialNumbers: serials ? JSON.stringify(serials) : null,
  };
  const written = await runBatch(tdb, {
    guard: target.guard,
    expiredHolds: releaseExpiredHolds(tdb, target.expiredHolds, now),
    ...move(
      tdb,
      { ...from, quantity: input.quantity, serialNumbers: serials },
      { locationId: input.toLocationId, warehouseId: target.destinationWarehouseId },
      why,
      movementIds,
    ),
    transferred: transferredEvent(tdb, transferred, now),
    from: levelSnapshot(tdb, from),
    to: levelSnapshot(tdb, to),
    movements: movementSnapshot(tdb, movementIds),
  }).catch(async (error) => {
    throw await answerFailedStockWrite(tdb, error, {
      take: { level: from, quantity: input.quantity },
      add: { level: to, quantity: input.quantity },
      serials: target.serials && { productId: input.productId, ...target.serials },
    });
  });
  if (changesOf(written.removal) === 0) throw await insufficientStock(tdb, from, input.quantity, "quantity");
  return {
    transferId,
    from: onlyRow(written.from),
    to: onlyRow(written.to),
    movements: written.movements,
  };
}
