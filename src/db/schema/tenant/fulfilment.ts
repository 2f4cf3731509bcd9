import { sql } from "drizzle-orm";
import { check, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { tenantRowKey, timestamps } from "./columns";

// Fulfilment (docs/decisions/fulfilment.md): pick lists and their lines, the picks scanned against them,
// shipments of packages, carrier settings and the tenant's GS1 settings. The CHECKs are the guards that
// concurrent pickers and shippers race against: a batch that would break one fails whole.

export const pickListStatuses = ["open", "in_progress", "completed", "cancelled"] as const;
export const pickListLineStatuses = ["open", "picked", "short", "cancelled"] as const;
export const shipmentStatuses = ["packed", "labelled", "dispatched", "cancelled"] as const;

export const pickLists = sqliteTable(
  "pick_lists",
  {
    ...tenantRowKey(),
    warehouseId: text("warehouse_id").notNull(),
    status: text("status", { enum: pickListStatuses }).notNull().default("open"),
    // The orders on it, in the order given (a wave has up to 200).
    orderIds: text("order_ids", { mode: "json" }).$type<string[]>().notNull(),
    createdBy: text("created_by"),
    completedAt: text("completed_at"),
    cancelledAt: text("cancelled_at"),
    ...timestamps(),
  },
  (t) => [
    index("pick_lists_tenant_created_idx").on(t.tenantId, t.createdAt, t.id),
    index("pick_lists_tenant_status_idx").on(t.tenantId, t.status, t.createdAt),
    check("pick_lists_status_check", sql`${t.status} in ('open', 'in_progress', 'completed', 'cancelled')`),
  ],
);

// One line per reservation row (order line, location, lot) at creation, numbered in walking order.
export const pickListLines = sqliteTable(
  "pick_list_lines",
  {
    ...tenantRowKey(),
    pickListId: text("pick_list_id").notNull(),
    lineNo: integer("line_no").notNull(),
    orderId: text("order_id").notNull(),
    orderLineId: text("order_line_id").notNull(),
    productId: text("product_id").notNull(),
    locationId: text("location_id").notNull(),
    // '' for stock without a lot, as in stock_levels.
    lotId: text("lot_id").notNull().default(""),
    quantity: integer("quantity").notNull(),
    pickedQuantity: integer("picked_quantity").notNull().default(0),
    shortQuantity: integer("short_quantity").notNull().default(0),
    status: text("status", { enum: pickListLineStatuses }).notNull().default("open"),
  },
  (t) => [
    index("pick_list_lines_tenant_list_idx").on(t.tenantId, t.pickListId, t.lineNo),
    index("pick_list_lines_tenant_order_idx").on(t.tenantId, t.orderId),
    check("pick_list_lines_quantity_check", sql`${t.quantity} > 0`),
    // What makes concurrent pickers of one line unable to pick more than it asks.
    check(
      "pick_list_lines_picked_check",
      sql`${t.pickedQuantity} >= 0 and ${t.shortQuantity} >= 0 and ${t.pickedQuantity} + ${t.shortQuantity} <= ${t.quantity}`,
    ),
    check("pick_list_lines_status_check", sql`${t.status} in ('open', 'picked', 'short', 'cancelled')`),
  ],
);

// Every confirmed scan (a pick) and short, as the scanner sent it: the audit trail of a pick list.
export const pickListPicks = sqliteTable(
  "pick_list_picks",
  {
    ...tenantRowKey(),
    pickListId: text("pick_list_id").notNull(),
    lineId: text("line_id").notNull(),
    kind: text("kind", { enum: ["pick", "short"] }).notNull(),
    quantity: integer("quantity").notNull(),
    serialNumbers: text("serial_numbers", { mode: "json" }).$type<string[] | null>(),
    toteCode: text("tote_code"),
    reason: text("reason"),
    actorType: text("actor_type").notNull(),
    actorId: text("actor_id"),
    createdAt: text("created_at").notNull(),
  },
  (t) => [
    index("pick_list_picks_tenant_list_idx").on(t.tenantId, t.pickListId, t.createdAt),
    check("pick_list_picks_quantity_check", sql`${t.quantity} > 0`),
  ],
);

export const shipments = sqliteTable(
  "shipments",
  {
    ...tenantRowKey(),
    orderId: text("order_id").notNull(),
    warehouseId: text("warehouse_id"),
    status: text("status", { enum: shipmentStatuses }).notNull().default("packed"),
    carrier: text("carrier"),
    service: text("service"),
    dispatchedAt: text("dispatched_at"),
    cancelledAt: text("cancelled_at"),
    // Bumped on every change; label, dispatch and cancel are guarded by the version they read.
    version: integer("version").notNull().default(1),
    createdBy: text("created_by"),
    ...timestamps(),
  },
  (t) => [
    index("shipments_tenant_created_idx").on(t.tenantId, t.createdAt, t.id),
    index("shipments_tenant_order_idx").on(t.tenantId, t.orderId, t.createdAt),
    index("shipments_tenant_status_idx").on(t.tenantId, t.status, t.createdAt),
    index("shipments_tenant_carrier_idx").on(t.tenantId, t.carrier, t.createdAt),
    check("shipments_status_check", sql`${t.status} in ('packed', 'labelled', 'dispatched', 'cancelled')`),
  ],
);

export const weightUnits = ["g", "kg", "oz", "lb"] as const;
export const lengthUnits = ["cm", "in"] as const;

export interface PackageDimensions {
  length: number;
  width: number;
  height: number;
  unit: (typeof lengthUnits)[number];
}

export const packages = sqliteTable(
  "packages",
  {
    ...tenantRowKey(),
    shipmentId: text("shipment_id").notNull(),
    // Position in the shipment (1-based), as the caller listed them.
    packageNo: integer("package_no").notNull(),
    sscc: text("sscc").notNull(),
    packageType: text("package_type"),
    // The weight as given, in thousandths of its unit (exact to 3 decimals); null only for the one package of a
    // shipment made by the legacy status update, which knows no weight.
    weightMilli: integer("weight_milli"),
    weightUnit: text("weight_unit", { enum: weightUnits }),
    dimensions: text("dimensions", { mode: "json" }).$type<PackageDimensions | null>(),
    trackingNumber: text("tracking_number"),
    labelFormat: text("label_format", { enum: ["pdf", "zpl"] }),
    createdAt: text("created_at").notNull(),
  },
  (t) => [
    uniqueIndex("packages_tenant_sscc_unique").on(t.tenantId, t.sscc),
    index("packages_tenant_shipment_idx").on(t.tenantId, t.shipmentId, t.packageNo),
    check("packages_weight_check", sql`${t.weightMilli} is null or ${t.weightMilli} > 0`),
  ],
);

// What a package holds: units of one order line from one lot.
export const packageLines = sqliteTable(
  "package_lines",
  {
    ...tenantRowKey(),
    packageId: text("package_id").notNull(),
    shipmentId: text("shipment_id").notNull(),
    orderLineId: text("order_line_id").notNull(),
    productId: text("product_id").notNull(),
    lotId: text("lot_id").notNull().default(""),
    quantity: integer("quantity").notNull(),
    serialNumbers: text("serial_numbers", { mode: "json" }).$type<string[] | null>(),
  },
  (t) => [
    index("package_lines_tenant_shipment_idx").on(t.tenantId, t.shipmentId),
    check("package_lines_quantity_check", sql`${t.quantity} > 0`),
  ],
);

// Where a shipment's units left from: one row per (order line, location, lot), what a cancellation puts back.
export const shipmentStock = sqliteTable(
  "shipment_stock",
  {
    tenantId: text("tenant_id").notNull(),
    shipmentId: text("shipment_id").notNull(),
    orderLineId: text("order_line_id").notNull(),
    productId: text("product_id").notNull(),
    locationId: text("location_id").notNull(),
    lotId: text("lot_id").notNull().default(""),
    quantity: integer("quantity").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.shipmentId, t.orderLineId, t.locationId, t.lotId] }),
    check("shipment_stock_quantity_check", sql`${t.quantity} > 0`),
  ],
);

export const carrierAdapters = ["http"] as const;

// A tenant's label service per carrier code; the secret is sealed at rest like webhook secrets.
export const carrierSettings = sqliteTable(
  "carrier_settings",
  {
    tenantId: text("tenant_id").notNull(),
    code: text("code").notNull(),
    adapter: text("adapter", { enum: carrierAdapters }).notNull(),
    url: text("url").notNull(),
    secretCiphertext: text("secret_ciphertext").notNull(),
    ...timestamps(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.code] })],
);

// The tenant's own settings that its shard's batches read: the GS1 company prefix and the SSCC counter.
export const tenantSettings = sqliteTable(
  "tenant_settings",
  {
    tenantId: text("tenant_id").primaryKey(),
    gs1CompanyPrefix: text("gs1_company_prefix"),
    // ISO 4217: the currency of the tenant's amounts (prices, costs, valuation); null until an admin sets it.
    currency: text("currency"),
    // The last SSCC serial reference handed out.
    ssccSerial: integer("sscc_serial").notNull().default(0),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [check("tenant_settings_sscc_serial_check", sql`${t.ssccSerial} >= 0`)],
);
