import { sql } from "drizzle-orm";
import { uuidv7 } from "uuidv7";
import type { Actor } from "../auth/principal";
import { runBatch } from "../db/batch";
import type { TenantDb } from "../db/client";
import { insufficientStock, isStockShortage } from "./insufficient-stock";
import type { MovementRecord, StockLevelRecord, TransferBody } from "./schemas";
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
  const eventId = uuidv7();
  const ctx = {
    ...actor,
    reason: "transfer",
    referenceType: "transfer",
    referenceId: transferId,
    notes: input.notes ?? null,
    now,
  };
  const sourceExists = sql`exists (select 1 from stock_levels where ${atLevel(tdb, from)})`;
  let results: D1Result[];
  try {
    results = await runBatch(tdb, [
      removeStock(tdb, from, input.quantity, now),
      ledgerRow(tdb, movementIds[0], from, -input.quantity, ctx),
      addStock(tdb, { ...to, warehouseId: destination.warehouseId }, input.quantity, now, sourceExists),
      ledgerRow(tdb, movementIds[1], to, input.quantity, ctx, sourceExists),
      sql`insert into outbox_events (id, tenant_id, type, payload, created_at)
        select ${eventId}, ${tdb.tenantId}, 'inventory.transferred',
          json_object('transferId', ${transferId}, 'productId', ${input.productId}, 'quantity', ${input.quantity},
            'from', json(${levelJson(tdb, from)}), 'to', json(${levelJson(tdb, to)})), ${now}
        where ${sourceExists}`,
      levelSnapshot(tdb, from),
      levelSnapshot(tdb, to),
      movementSnapshot(tdb, movementIds),
    ]);
  } catch (error) {
    if (isStockShortage(error)) throw await insufficientStock(tdb, from, input.quantity, "quantity");
    throw error;
  }
  if (results[0]?.meta.changes === 0) throw await insufficientStock(tdb, from, input.quantity, "quantity");
  return {
    result: {
      transferId,
      from: results[5]?.results[0] as StockLevelRecord,
      to: results[6]?.results[0] as StockLevelRecord,
      movements: (results[7]?.results ?? []) as MovementRecord[],
    },
    eventIds: [eventId],
  };
}
