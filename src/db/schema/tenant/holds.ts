import { sql } from "drizzle-orm";
import { check, index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { tenantRowKey, timestamps } from "./columns";

export const holdStatuses = ["active", "released", "expired", "consumed"] as const;

// Stock held for a cart or a quote without an order. An active hold counts in stock_levels.reserved
// exactly like an order's reservation (its allocations say where); the status CHECK doubles as the
// assertion that fails an order's batch when the hold it consumes is no longer active (see holds/consume.ts).
export const stockHolds = sqliteTable(
  "stock_holds",
  {
    ...tenantRowKey(),
    productId: text("product_id").notNull(),
    quantity: integer("quantity").notNull(),
    // Where the caller asked to hold from (at most one of them); null: anywhere.
    locationId: text("location_id"),
    warehouseId: text("warehouse_id"),
    reference: text("reference"),
    status: text("status", { enum: holdStatuses }).notNull().default("active"),
    expiresAt: text("expires_at").notNull(),
    // The sales order that consumed it.
    orderId: text("order_id"),
    releasedAt: text("released_at"),
    ...timestamps(),
  },
  (t) => [
    index("stock_holds_tenant_created_idx").on(t.tenantId, t.createdAt, t.id),
    index("stock_holds_tenant_product_idx").on(t.tenantId, t.productId, t.status),
    index("stock_holds_tenant_reference_idx").on(t.tenantId, t.reference),
    // The expiry sweep reads only active holds, oldest expiry first.
    index("stock_holds_active_expiry_idx").on(t.expiresAt).where(sql`${t.status} = 'active'`),
    check("stock_holds_status_check", sql`${t.status} in ('active', 'released', 'expired', 'consumed')`),
    check("stock_holds_quantity_check", sql`${t.quantity} > 0`),
  ],
);

// Where a hold's quantity is reserved: one row per (hold, location, lot); `lot_id` is '' for stock without a
// lot, as in stock_levels.
export const stockHoldAllocations = sqliteTable(
  "stock_hold_allocations",
  {
    tenantId: text("tenant_id").notNull(),
    holdId: text("hold_id").notNull(),
    productId: text("product_id").notNull(),
    locationId: text("location_id").notNull(),
    warehouseId: text("warehouse_id").notNull(),
    lotId: text("lot_id").notNull().default(""),
    quantity: integer("quantity").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.holdId, t.locationId, t.lotId] }),
    check("stock_hold_allocations_quantity_check", sql`${t.quantity} > 0`),
  ],
);
