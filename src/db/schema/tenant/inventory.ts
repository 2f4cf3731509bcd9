import { sql } from "drizzle-orm";
import { check, index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { locations, productIdColumn, warehouses } from "./catalog";
import { tenantRowKey } from "./columns";

/**
 * The most units one stock level may hold. With costs at most 10^13 ten-thousandths it keeps every value exact:
 * a level's value fits 2^63, and report totals are summed in 8-bit slices of the cost (src/reports/exact-sum.ts).
 */
export const MAX_ON_HAND = 1_000_000_000;

// One row per (product, location, lot). `lot_id` is '' for stock that is not lot-tracked: SQLite treats NULLs
// as distinct in a key, so a sentinel keeps (tenant, product, location, lot) unique. The CHECKs are the last line
// of defence against oversell and overflow:
// a guarded update that would break them fails, and with it the whole batch it belongs to.
export const stockLevels = sqliteTable(
  "stock_levels",
  {
    tenantId: text("tenant_id").notNull(),
    productId: productIdColumn(),
    locationId: text("location_id")
      .notNull()
      .references(() => locations.id),
    warehouseId: text("warehouse_id")
      .notNull()
      .references(() => warehouses.id),
    lotId: text("lot_id").notNull().default(""),
    onHand: integer("on_hand").notNull().default(0),
    reserved: integer("reserved").notNull().default(0),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.productId, t.locationId, t.lotId] }),
    index("stock_levels_tenant_location_idx").on(t.tenantId, t.locationId),
    index("stock_levels_tenant_warehouse_idx").on(t.tenantId, t.warehouseId),
    check("stock_levels_on_hand_check", sql`${t.onHand} >= 0`),
    check("stock_levels_on_hand_max_check", sql`${t.onHand} <= ${sql.raw(String(MAX_ON_HAND))}`),
    check("stock_levels_reserved_check", sql`${t.reserved} >= 0 and ${t.reserved} <= ${t.onHand}`),
  ],
);

// The append-only ledger: for every (product, location, lot) the deltas sum to onHand.
export const stockMovements = sqliteTable(
  "stock_movements",
  {
    ...tenantRowKey(),
    productId: text("product_id").notNull(),
    locationId: text("location_id").notNull(),
    warehouseId: text("warehouse_id").notNull(),
    lotId: text("lot_id").notNull().default(""),
    // The serial numbers a movement of a serial-tracked product moved (JSON array).
    serialNumbers: text("serial_numbers", { mode: "json" }).$type<string[] | null>(),
    delta: integer("delta").notNull(),
    onHandAfter: integer("on_hand_after").notNull(),
    reason: text("reason").notNull(),
    referenceType: text("reference_type"),
    referenceId: text("reference_id"),
    notes: text("notes"),
    actorType: text("actor_type", { enum: ["user", "api_key", "system"] }).notNull(),
    actorId: text("actor_id"),
    requestId: text("request_id"),
    createdAt: text("created_at").notNull(),
  },
  (t) => [
    index("stock_movements_tenant_created_idx").on(t.tenantId, t.createdAt, t.id),
    index("stock_movements_tenant_product_idx").on(t.tenantId, t.productId, t.createdAt),
    index("stock_movements_tenant_location_idx").on(t.tenantId, t.locationId, t.createdAt),
    // Stock as of an instant: the last row of a level (product, location, lot) at or before it, one probe per level.
    index("stock_movements_tenant_level_created_idx").on(
      t.tenantId,
      t.productId,
      t.locationId,
      t.lotId,
      t.createdAt,
    ),
    index("stock_movements_tenant_reference_idx").on(t.tenantId, t.referenceId),
    index("stock_movements_tenant_lot_idx").on(t.tenantId, t.lotId, t.createdAt).where(sql`${t.lotId} <> ''`),
    check("stock_movements_delta_check", sql`${t.delta} <> 0`),
  ],
);
