import { uuidv7 } from "uuidv7";
import type { Actor } from "../auth/principal";
import { onlyRow, runBatch } from "../db/batch";
import type { TenantDb } from "../db/client";
import { newOrderRecord, type OrderRow } from "../order-core/records";
import { inBaseUnits } from "../stock";
import {
  assertOrderable,
  assertStocked,
  assertWarehouse,
  lineRows,
  merchantOfLines,
  productsQuery,
  warehouseQuery,
} from "./order-inputs";
import { insertOrder, orderCreatedEvent, selectNumber } from "./order-writes";
import type { CreatePurchaseOrderBody } from "./schemas";

/** Creates a purchase order (status draft) in one batch; stock changes only when it is received. */
export async function createPurchaseOrder(tdb: TenantDb, actor: Actor, body: CreatePurchaseOrderBody) {
  const input = { ...body, lines: await inBaseUnits(tdb, body.lines, (i) => `lines[${i}].`) };
  const orderId = uuidv7();
  const now = new Date().toISOString();
  const { rows: lines, totalE4 } = lineRows(
    tdb.tenantId,
    orderId,
    input.lines.map((l) => ({ productId: l.productId, quantity: l.quantity, unitPrice: l.cost })),
  );
  const read = await runBatch(tdb, {
    products: productsQuery(
      tdb,
      input.lines.map((l) => l.productId),
    ),
    warehouse: warehouseQuery(tdb, input.warehouseId),
  });
  assertWarehouse(read.warehouse);
  assertOrderable(input.lines, read.products);
  assertStocked(input.lines, read.products);

  const row: Omit<OrderRow, "number"> = {
    id: orderId,
    tenantId: tdb.tenantId,
    type: "purchase",
    status: "draft",
    customerId: null,
    customerName: null,
    supplier: input.supplier,
    warehouseId: input.warehouseId,
    shippingAddress: null,
    trackingNumber: null,
    notes: input.notes ?? null,
    expectedAt: input.expectedAt ?? null,
    totalE4,
    merchantId: merchantOfLines(input.lines, read.products),
    version: 1,
    createdBy: actor.actorId,
    kitLines: null,
    createdAt: now,
    updatedAt: now,
  };
  const record = newOrderRecord(row, lines, actor);
  const written = await runBatch(tdb, {
    order: insertOrder(tdb, row, lines, actor),
    created: orderCreatedEvent(tdb, orderId, record, now),
    number: selectNumber(tdb, orderId),
  });
  return { ...record, number: onlyRow(written.number).number };
}
