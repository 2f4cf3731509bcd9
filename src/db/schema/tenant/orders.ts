import { sql } from "drizzle-orm";
import { check, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { tenantRowKey, timestamps } from "./columns";

export const orders = sqliteTable(
  "orders",
  {
    ...tenantRowKey(),
    // SO-000001 / PO-000001, numbered per tenant from order_counters inside the creating batch.
    number: text("number").notNull(),
    type: text("type", { enum: ["sales", "purchase"] }).notNull(),
    status: text("status").notNull(),
    customerId: text("customer_id"),
    // Sales orders: the customer's name as the integrator gave it (the id is theirs; there is no customer resource).
    customerName: text("customer_name"),
    supplier: text("supplier"),
    warehouseId: text("warehouse_id"),
    shippingAddress: text("shipping_address", { mode: "json" }).$type<Record<string, string> | null>(),
    trackingNumber: text("tracking_number"),
    notes: text("notes"),
    expectedAt: text("expected_at"),
    totalE4: integer("total_e4").notNull().default(0),
    // The merchant of every product on it (an order never mixes merchants); null: the tenant's own.
    merchantId: text("merchant_id"),
    // Bumped on every status change; a status update is guarded by the version it read.
    version: integer("version").notNull().default(1),
    createdBy: text("created_by"),
    // Sales orders: the lines that sold kits. Their components are ordinary order lines (kit_line_id).
    kitLines: text("kit_lines", { mode: "json" }).$type<KitLine[] | null>(),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex("orders_tenant_number_unique").on(t.tenantId, t.number),
    index("orders_tenant_created_idx").on(t.tenantId, t.createdAt, t.id),
    index("orders_tenant_status_created_idx").on(t.tenantId, t.status, t.createdAt),
    index("orders_tenant_type_created_idx").on(t.tenantId, t.type, t.createdAt),
    index("orders_tenant_customer_idx").on(t.tenantId, t.customerId, t.createdAt),
    index("orders_tenant_merchant_idx").on(t.tenantId, t.merchantId, t.createdAt, t.id),
    check("orders_type_check", sql`${t.type} in ('sales', 'purchase')`),
  ],
);

export const orderLines = sqliteTable(
  "order_lines",
  {
    ...tenantRowKey(),
    orderId: text("order_id")
      .notNull()
      .references(() => orders.id),
    lineNo: integer("line_no").notNull(),
    productId: text("product_id").notNull(),
    quantity: integer("quantity").notNull(),
    // Unit price (sales) or unit cost (purchase), in ten-thousandths.
    unitPriceE4: integer("unit_price_e4").notNull(),
    receivedQuantity: integer("received_quantity").notNull().default(0),
    // Sales lines: units shipped so far, and units a short pick closed (they will not ship on this order).
    shippedQuantity: integer("shipped_quantity").notNull().default(0),
    backorderedQuantity: integer("backordered_quantity").notNull().default(0),
    // Sales lines of lot-tracked products: the lot the line was pinned to, if any.
    lotNumber: text("lot_number"),
    // What the line was allocated (lots, at creation) and shipped (serial numbers, at shipping).
    lots: text("lots", { mode: "json" }).$type<LineLot[] | null>(),
    serialNumbers: text("serial_numbers", { mode: "json" }).$type<string[] | null>(),
    // A kit's component line: the kit line (orders.kit_lines) it was expanded from.
    kitLineId: text("kit_line_id"),
  },
  (t) => [
    index("order_lines_tenant_order_idx").on(t.tenantId, t.orderId, t.lineNo),
    index("order_lines_tenant_product_idx").on(t.tenantId, t.productId),
    check("order_lines_quantity_check", sql`${t.quantity} > 0`),
    check(
      "order_lines_received_check",
      sql`${t.receivedQuantity} >= 0 and ${t.receivedQuantity} <= ${t.quantity}`,
    ),
    // What makes concurrent shipments of one order unable to ship more than it ordered.
    check(
      "order_lines_shipped_check",
      sql`${t.shippedQuantity} >= 0 and ${t.backorderedQuantity} >= 0 and ${t.shippedQuantity} + ${t.backorderedQuantity} <= ${t.quantity}`,
    ),
  ],
);

/** A sales line that sold kits: the kit, how many, at what unit price; components ship on their own lines. */
export interface KitLine {
  id: string;
  lineNo: number;
  productId: string;
  quantity: number;
  unitPriceE4: number;
}

/** A lot a sales line was allocated from (stored on the line, so it outlives the reservation). */
export interface LineLot {
  lotId: string;
  lotNumber: string;
  expiresAt: string | null;
  quantity: number;
}

// Where a sales order line's stock is held: one row per (line, location, lot) it reserved from.
export const orderReservations = sqliteTable(
  "order_reservations",
  {
    tenantId: text("tenant_id").notNull(),
    orderId: text("order_id").notNull(),
    lineId: text("line_id").notNull(),
    productId: text("product_id").notNull(),
    locationId: text("location_id").notNull(),
    lotId: text("lot_id").notNull().default(""),
    quantity: integer("quantity").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.orderId, t.lineId, t.locationId, t.lotId] }),
    index("order_reservations_tenant_product_idx").on(t.tenantId, t.productId),
    check("order_reservations_quantity_check", sql`${t.quantity} > 0`),
  ],
);

export const orderStatusHistory = sqliteTable(
  "order_status_history",
  {
    ...tenantRowKey(),
    orderId: text("order_id").notNull(),
    fromStatus: text("from_status"),
    toStatus: text("to_status").notNull(),
    actorType: text("actor_type").notNull(),
    actorId: text("actor_id"),
    createdAt: text("created_at").notNull(),
  },
  (t) => [index("order_status_history_tenant_order_idx").on(t.tenantId, t.orderId, t.createdAt)],
);

export const orderCounters = sqliteTable(
  "order_counters",
  {
    tenantId: text("tenant_id").notNull(),
    type: text("type", { enum: ["sales", "purchase"] }).notNull(),
    value: integer("value").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.type] })],
);
