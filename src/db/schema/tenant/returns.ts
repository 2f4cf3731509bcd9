import { sql } from "drizzle-orm";
import { check, index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { tenantRowKey, timestamps } from "./columns";

// Returns (RMA, docs/decisions/returns.md): a return authorization of a sales order's shipped units, its lines
// and the receipts that take the units back. The CHECK on a line's received quantity is the guard that
// concurrent receipts race against: a batch that would receive more than was authorized fails whole.

export const returnStatuses = [
  "requested",
  "authorized",
  "received",
  "closed",
  "rejected",
  "cancelled",
] as const;
export const returnDispositions = ["restock", "quarantine", "scrap"] as const;

export const returns = sqliteTable(
  "returns",
  {
    ...tenantRowKey(),
    // RMA-000001, numbered per tenant from return_counters inside the creating batch.
    number: text("number").notNull(),
    orderId: text("order_id").notNull(),
    status: text("status", { enum: returnStatuses }).notNull().default("requested"),
    notes: text("notes"),
    // Bumped on every change; a status update and a receipt are guarded by the version they read.
    version: integer("version").notNull().default(1),
    createdBy: text("created_by"),
    authorizedAt: text("authorized_at"),
    receivedAt: text("received_at"),
    closedAt: text("closed_at"),
    rejectedAt: text("rejected_at"),
    cancelledAt: text("cancelled_at"),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex("returns_tenant_number_unique").on(t.tenantId, t.number),
    index("returns_tenant_created_idx").on(t.tenantId, t.createdAt, t.id),
    index("returns_tenant_status_idx").on(t.tenantId, t.status, t.createdAt),
    index("returns_tenant_order_idx").on(t.tenantId, t.orderId, t.createdAt),
    check(
      "returns_status_check",
      sql`${t.status} in ('requested', 'authorized', 'received', 'closed', 'rejected', 'cancelled')`,
    ),
  ],
);

// One line per order line a return names: what it authorizes back and what was received so far.
export const returnLines = sqliteTable(
  "return_lines",
  {
    ...tenantRowKey(),
    returnId: text("return_id").notNull(),
    lineNo: integer("line_no").notNull(),
    orderId: text("order_id").notNull(),
    orderLineId: text("order_line_id").notNull(),
    productId: text("product_id").notNull(),
    quantity: integer("quantity").notNull(),
    receivedQuantity: integer("received_quantity").notNull().default(0),
    reason: text("reason").notNull(),
  },
  (t) => [
    index("return_lines_tenant_return_idx").on(t.tenantId, t.returnId, t.lineNo),
    index("return_lines_tenant_order_line_idx").on(t.tenantId, t.orderLineId),
    check("return_lines_quantity_check", sql`${t.quantity} > 0`),
    // What makes concurrent receipts of one return unable to receive more than it authorized.
    check(
      "return_lines_received_check",
      sql`${t.receivedQuantity} >= 0 and ${t.receivedQuantity} <= ${t.quantity}`,
    ),
  ],
);

// What one receipt took back of a return line, and what became of it.
export const returnReceiptLines = sqliteTable(
  "return_receipt_lines",
  {
    ...tenantRowKey(),
    receiptId: text("receipt_id").notNull(),
    returnId: text("return_id").notNull(),
    returnLineId: text("return_line_id").notNull(),
    productId: text("product_id").notNull(),
    quantity: integer("quantity").notNull(),
    disposition: text("disposition", { enum: returnDispositions }).notNull(),
    locationId: text("location_id").notNull(),
    warehouseId: text("warehouse_id").notNull(),
    lotId: text("lot_id").notNull().default(""),
    serialNumbers: text("serial_numbers", { mode: "json" }).$type<string[] | null>(),
    actorType: text("actor_type").notNull(),
    actorId: text("actor_id"),
    createdAt: text("created_at").notNull(),
  },
  (t) => [
    index("return_receipt_lines_tenant_return_idx").on(t.tenantId, t.returnId, t.createdAt),
    index("return_receipt_lines_tenant_created_idx").on(t.tenantId, t.createdAt),
    check("return_receipt_lines_quantity_check", sql`${t.quantity} > 0`),
    check(
      "return_receipt_lines_disposition_check",
      sql`${t.disposition} in ('restock', 'quarantine', 'scrap')`,
    ),
  ],
);

export const returnCounters = sqliteTable("return_counters", {
  tenantId: text("tenant_id").primaryKey(),
  value: integer("value").notNull().default(0),
});
