import { uuidv7 } from "uuidv7";
import type { Actor } from "../auth/principal";
import { runBatch } from "../db/batch";
import type { TenantDb } from "../db/client";
import { assertOrderable, assertWarehouse, lineRows, productsQuery, warehouseQuery } from "./order-inputs";
import { insertOrder, numberFrom, orderEvent, selectNumber } from "./order-writes";
import { newOrderRecord, type OrderRow } from "./records";
import type { CreatePurchaseOrderBody } from "./schemas";

/** Creates a purchase order (status draft) in one batch; stock changes only when it is received. */
export async function createPurchaseOrder(tdb: TenantDb, actor: Actor, input: CreatePurchaseOrderBody) {
  const orderId = uuidv7();
  const now = new Date().toISOString();
  const { rows: lines, totalE4 } = lineRows(
    tdb.tenantId,
    orderId,
    input.lines.map((l) => ({ productId: l.productId, quantity: l.quantity, unitPrice: l.cost })),
  );
  const [found, warehouse] = await tdb.db.batch([
    productsQuery(
      tdb,
      input.lines.map((l) => l.productId),
    ),
    warehouseQuery(tdb, input.warehouseId),
  ]);
  assertWarehouse(warehouse);
  assertOrderable(input.lines, found);

  const row: Omit<OrderRow, "number"> = {
    id: orderId,
    tenantId: tdb.tenantId,
    type: "purchase",
    status: "draft",
    customerId: null,
    supplier: input.supplier,
    warehouseId: input.warehouseId,
    shippingAddress: null,
    trackingNumber: null,
    notes: input.notes ?? null,
    expectedAt: input.expectedAt ?? null,
    totalE4,
    version: 1,
    createdBy: actor.actorId,
    createdAt: now,
    updatedAt: now,
  };
  const record = newOrderRecord(row, lines, actor);
  const created = orderEvent(tdb, "order.created", record, now, { withNumberOf: orderId });
  const results = await runBatch(tdb, [
    ...insertOrder(tdb, row, lines, actor),
    created.query,
    selectNumber(tdb, orderId),
  ]);
  const number = numberFrom(results.at(-1));
  return { order: { ...record, number }, eventIds: [created.id] };
}
