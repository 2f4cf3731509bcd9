import type { orderLines, orderStatusHistory, orders } from "../db/schema/tenant";
import { exactMoneyWithText, fromE4 } from "../money";
import type { ShippingAddress } from "./schemas";
import { allowedTransitions, type OrderStatus } from "./state-machine";

export type OrderRow = typeof orders.$inferSelect;
export type OrderLineRow = typeof orderLines.$inferSelect;
export type StatusHistoryRow = typeof orderStatusHistory.$inferSelect;

/**
 * Exact line and order totals in ten-thousandths. BigInt because quantity x price can exceed 2^53;
 * returns undefined when the order total does not fit a safe integer (the caller answers 400).
 */
export function totalE4Of(lines: readonly { quantity: number; unitPriceE4: number }[]): number | undefined {
  const total = lines.reduce((sum, line) => sum + BigInt(line.quantity) * BigInt(line.unitPriceE4), 0n);
  return total <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(total) : undefined;
}

export function orderSummary(row: OrderRow, quantity: number) {
  return {
    id: row.id,
    number: row.number,
    type: row.type,
    status: row.status as OrderStatus,
    customerId: row.customerId,
    customerName: row.customerName,
    supplier: row.supplier,
    warehouseId: row.warehouseId,
    merchantId: row.merchantId,
    shippingAddress: row.shippingAddress as ShippingAddress | null,
    trackingNumber: row.trackingNumber,
    notes: row.notes,
    expectedAt: row.expectedAt,
    totals: { quantity, ...exactMoneyWithText("total", row.totalE4) },
    allowedTransitions: allowedTransitions(row.type, row.status),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/**
 * What `GET /orders/{id}` shows beside the stored order: what became of a sales order's units so far, per line id
 * (reserved now, picked on pick lists), and the SKU and name of each product of its lines and kit lines.
 */
export interface OrderShown {
  reserved: ReadonlyMap<string, number>;
  picked: ReadonlyMap<string, number>;
  products: ReadonlyMap<string, { sku: string; name: string }>;
}

/** A line's product as the page names it (absent outside `GET /orders/{id}`). */
const productNamed = (productId: string, shown: OrderShown | undefined) => {
  const product = shown?.products.get(productId);
  return product ? { sku: product.sku, productName: product.name } : {};
};

/** Each line's reserved units, from the order's reservation rows. */
export function reservedPerLine(reservations: readonly { lineId: string; quantity: number }[]) {
  const reserved = new Map<string, number>();
  for (const r of reservations) reserved.set(r.lineId, (reserved.get(r.lineId) ?? 0) + r.quantity);
  return reserved;
}

function lineRecord(type: OrderRow["type"], line: OrderLineRow, shown: OrderShown | undefined) {
  const unit = fromE4(line.unitPriceE4);
  const progress = type === "sales" ? shown : undefined;
  return {
    id: line.id,
    lineNo: line.lineNo,
    productId: line.productId,
    ...productNamed(line.productId, shown),
    quantity: line.quantity,
    ...(type === "sales"
      ? {
          price: unit,
          ...(progress && {
            reservedQuantity: progress.reserved.get(line.id) ?? 0,
            pickedQuantity: progress.picked.get(line.id) ?? 0,
          }),
          shippedQuantity: line.shippedQuantity,
          backorderedQuantity: line.backorderedQuantity,
          lotNumber: line.lotNumber,
          lots: line.lots,
          serialNumbers: line.serialNumbers,
          kitLineId: line.kitLineId,
        }
      : { cost: unit, receivedQuantity: line.receivedQuantity }),
    // A safe integer (the order total is one), printed exactly.
    ...exactMoneyWithText("lineTotal", line.quantity * line.unitPriceE4),
  };
}

/** The full order as returned by GET /orders/{id} (with `shown`) and carried in order events. */
export function orderRecord(
  row: OrderRow,
  lines: readonly OrderLineRow[],
  history: readonly StatusHistoryRow[],
  shown?: OrderShown,
) {
  const sorted = [...lines].sort((a, b) => a.lineNo - b.lineNo);
  return {
    ...orderSummary(
      row,
      sorted.reduce((sum, line) => sum + line.quantity, 0),
    ),
    lines: sorted.map((line) => lineRecord(row.type, line, shown)),
    kitLines: (row.kitLines ?? []).map((kit) => ({
      id: kit.id,
      lineNo: kit.lineNo,
      productId: kit.productId,
      ...productNamed(kit.productId, shown),
      quantity: kit.quantity,
      price: fromE4(kit.unitPriceE4),
      ...exactMoneyWithText("lineTotal", kit.quantity * kit.unitPriceE4),
    })),
    statusHistory: history.map((change) => ({
      from: change.fromStatus as OrderStatus | null,
      to: change.toStatus as OrderStatus,
      at: change.createdAt,
      by: { type: change.actorType as "user" | "api_key" | "system", id: change.actorId },
    })),
  };
}

export type OrderRecord = ReturnType<typeof orderRecord>;

/** A status change as it will be stored, for building the record a write returns before it commits. */
export function historyEntry(
  row: Pick<OrderRow, "tenantId" | "id">,
  from: string | null,
  to: string,
  actor: { actorType: "user" | "api_key"; actorId: string },
  at: string,
): StatusHistoryRow {
  return {
    id: "",
    tenantId: row.tenantId,
    orderId: row.id,
    fromStatus: from,
    toStatus: to,
    actorType: actor.actorType,
    actorId: actor.actorId,
    createdAt: at,
  };
}

/** A just-created order as returned and carried in `order.created` (the number is filled in by the batch). */
export function newOrderRecord(
  row: Omit<OrderRow, "number">,
  lines: readonly OrderLineRow[],
  actor: { actorType: "user" | "api_key"; actorId: string },
) {
  return orderRecord({ ...row, number: "" }, lines, [
    historyEntry(row, null, row.status, actor, row.createdAt),
  ]);
}
