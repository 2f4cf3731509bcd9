import { sql } from "drizzle-orm";
import { check, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { productIdColumn } from "./catalog";
import { tenantRowKey, timestamps } from "./columns";

// A lot (batch) of a lot-tracked product: `number` is unique per product; stock levels and ledger rows
// name it by id. `created_at` is the lot's first receipt, FEFO's tie-breaker among lots without expiry.
export const lots = sqliteTable(
  "lots",
  {
    ...tenantRowKey(),
    productId: productIdColumn(),
    number: text("number").notNull(),
    // Calendar dates (YYYY-MM-DD): a lot is expired from its expiry date on.
    expiresAt: text("expires_at"),
    manufacturedAt: text("manufactured_at"),
    createdAt: text("created_at").notNull(),
  },
  (t) => [
    uniqueIndex("lots_tenant_product_number_unique").on(t.tenantId, t.productId, t.number),
    index("lots_tenant_expires_idx").on(t.tenantId, t.expiresAt),
    // A scanned lot number is looked up without its product (GET /barcodes/{code}).
    index("lots_tenant_number_idx").on(t.tenantId, t.number),
    index("lots_tenant_created_idx").on(t.tenantId, t.createdAt, t.id),
  ],
);

// One row per serial number of a serial-tracked product (unique per product). `on_hand` is 1 while the
// unit is in stock at `location_id`; its CHECK is what refuses receiving a unit twice or removing one
// that is not there, by failing the whole batch of the request that tried.
export const serialNumbers = sqliteTable(
  "serial_numbers",
  {
    tenantId: text("tenant_id").notNull(),
    productId: productIdColumn(),
    serial: text("serial").notNull(),
    locationId: text("location_id"),
    warehouseId: text("warehouse_id"),
    onHand: integer("on_hand").notNull().default(0),
    ...timestamps(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.productId, t.serial] }),
    index("serial_numbers_tenant_location_idx").on(t.tenantId, t.locationId, t.productId),
    check("serial_numbers_on_hand_check", sql`${t.onHand} in (0, 1)`),
  ],
);

export const countStatuses = ["open", "submitted", "approved", "cancelled"] as const;

// A cycle count: the scope it snapshotted, and where it is in open -> submitted -> approved | cancelled.
export const inventoryCounts = sqliteTable(
  "inventory_counts",
  {
    ...tenantRowKey(),
    status: text("status", { enum: countStatuses }).notNull().default("open"),
    warehouseId: text("warehouse_id"),
    locationIds: text("location_ids", { mode: "json" }).$type<string[] | null>(),
    productIds: text("product_ids", { mode: "json" }).$type<string[] | null>(),
    createdBy: text("created_by"),
    approvedBy: text("approved_by"),
    createdAt: text("created_at").notNull(),
    submittedAt: text("submitted_at"),
    approvedAt: text("approved_at"),
    cancelledAt: text("cancelled_at"),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [
    index("inventory_counts_tenant_created_idx").on(t.tenantId, t.createdAt, t.id),
    index("inventory_counts_tenant_status_idx").on(t.tenantId, t.status, t.createdAt),
    check(
      "inventory_counts_status_check",
      sql`${t.status} in ('open', 'submitted', 'approved', 'cancelled')`,
    ),
  ],
);

// A count's line per (product, location, lot): `expected` is on hand at the snapshot; `onHandAtCount` is
// on hand when the counted quantity was recorded (the snapshot plus every movement since), so
// variance = counted - onHandAtCount: a pick during counting is not a phantom variance. A serial-tracked
// line also names its serials, so its variance is which serials are missing and which were found.
export const inventoryCountLines = sqliteTable(
  "inventory_count_lines",
  {
    tenantId: text("tenant_id").notNull(),
    countId: text("count_id").notNull(),
    productId: text("product_id").notNull(),
    locationId: text("location_id").notNull(),
    lotId: text("lot_id").notNull().default(""),
    warehouseId: text("warehouse_id").notNull(),
    expected: integer("expected").notNull(),
    counted: integer("counted"),
    onHandAtCount: integer("on_hand_at_count"),
    countedAt: text("counted_at"),
    countedBy: text("counted_by"),
    // Serial-tracked products only: the serials on hand there at the snapshot, the serials counted, and
    // those on hand when the line was counted (the serial counterpart of onHandAtCount).
    expectedSerials: text("expected_serials", { mode: "json" }).$type<string[] | null>(),
    countedSerials: text("counted_serials", { mode: "json" }).$type<string[] | null>(),
    serialsAtCount: text("serials_at_count", { mode: "json" }).$type<string[] | null>(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.countId, t.productId, t.locationId, t.lotId] }),
    check("inventory_count_lines_counted_check", sql`${t.counted} is null or ${t.counted} >= 0`),
  ],
);
