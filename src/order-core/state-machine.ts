// The order lifecycles (README, "Orders") as pure data and functions: no database, no HTTP.

// Each lifecycle's own steps, then `cancelled`, which both share.
const salesSteps = [
  "pending",
  "confirmed",
  "picking",
  "packed",
  "partially_shipped",
  "shipped",
  "delivered",
] as const;
const purchaseSteps = ["draft", "ordered", "partially_received", "received"] as const;
export const salesStatuses = [...salesSteps, "cancelled"] as const;
export const purchaseStatuses = [...purchaseSteps, "cancelled"] as const;
export const orderStatuses = [...salesSteps, ...purchaseSteps, "cancelled"] as const;

export type SalesStatus = (typeof salesStatuses)[number];
export type PurchaseStatus = (typeof purchaseStatuses)[number];
export type OrderStatus = (typeof orderStatuses)[number];
export type OrderType = "sales" | "purchase";

// The sales chain: any forward move is allowed (pending -> shipped directly is fine), except to
// partially_shipped, which only a shipment reaches (like partially_received, by receiving).
const salesChain: readonly SalesStatus[] = salesSteps;
const salesShippedIndex = salesChain.indexOf("shipped");
const partiallyShippedIndex = salesChain.indexOf("partially_shipped");

function salesNext(status: SalesStatus): SalesStatus[] {
  const index = salesChain.indexOf(status);
  if (index < 0) return []; // cancelled is final
  const forward = salesChain.slice(index + 1).filter((s) => s !== "partially_shipped");
  // Once a unit shipped the order cannot be cancelled: its shipments happened (short the rest instead).
  return index < partiallyShippedIndex ? [...forward, "cancelled"] : forward;
}

// Purchase orders move to partially_received / received only by receiving stock, never by a status update.
const purchaseNextByUpdate: Record<PurchaseStatus, PurchaseStatus[]> = {
  draft: ["ordered", "cancelled"],
  ordered: ["cancelled"],
  partially_received: [],
  received: [],
  cancelled: [],
};

/** The statuses a `PATCH /orders/{id}/status` may move an order to from `status`. */
export function allowedTransitions(type: OrderType, status: string): OrderStatus[] {
  if (type === "sales") {
    return (salesStatuses as readonly string[]).includes(status) ? salesNext(status as SalesStatus) : [];
  }
  return purchaseNextByUpdate[status as PurchaseStatus] ?? [];
}

export function canTransition(type: OrderType, from: string, to: string): boolean {
  return (allowedTransitions(type, from) as string[]).includes(to);
}

/** Whether a sales order moving from `from` to `to` passes `shipped` (its reservations become shipments). */
export function shipsStock(from: string, to: string): boolean {
  const fromIndex = salesChain.indexOf(from as SalesStatus);
  const toIndex = salesChain.indexOf(to as SalesStatus);
  return fromIndex >= 0 && fromIndex < salesShippedIndex && toIndex >= salesShippedIndex;
}

/** Purchase orders accept receipts once ordered, until fully received. */
export function canReceive(status: string): boolean {
  return status === "ordered" || status === "partially_received";
}

/** The status a purchase order has after a receipt, from its lines' ordered and received totals. */
export function statusAfterReceipt(
  lines: readonly { quantity: number; receivedQuantity: number }[],
): PurchaseStatus {
  return lines.every((line) => line.receivedQuantity >= line.quantity) ? "received" : "partially_received";
}
