import { sql } from "drizzle-orm";
import { check, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { tenantRowKey, timestamps } from "./columns";
import { merchants } from "./merchants";

export const productTrackings = ["none", "lot", "serial"] as const;
/** A stocked product holds stock; a kit never does: it is sold as its components (kit_components). */
export const productTypes = ["stocked", "kit"] as const;

export const products = sqliteTable(
  "products",
  {
    ...tenantRowKey(),
    sku: text("sku").notNull(),
    name: text("name").notNull(),
    barcode: text("barcode"),
    category: text("category"),
    unit: text("unit"),
    // Money is stored exactly as integer ten-thousandths (4 decimals), never as a binary float.
    priceE4: integer("price_e4"),
    costE4: integer("cost_e4"),
    status: text("status", { enum: ["Active", "Inactive"] })
      .notNull()
      .default("Active"),
    reorderPoint: integer("reorder_point").notNull().default(0),
    // How units are told apart: not at all, by lot (with expiry), or one by one by serial number.
    tracking: text("tracking", { enum: productTrackings }).notNull().default("none"),
    type: text("type", { enum: productTypes }).notNull().default("stocked"),
    description: text("description"),
    // The merchant whose goods these are (a 3PL's brand); null: the tenant's own.
    merchantId: text("merchant_id").references(() => merchants.id),
    // Bumped on every write; the ETag is derived from it.
    version: integer("version").notNull().default(1),
    ...timestamps(),
  },
  (t) => [
    // SKUs and barcodes are unique per owner (docs/decisions/merchants.md, "SKUs and barcodes per merchant"):
    // among the tenant's own goods, and among each merchant's. Two brands may both sell TSHIRT-M; a brand's write
    // never meets another brand's code. Lookups by code read the plain indexes, which serve every owner.
    uniqueIndex("products_tenant_sku_unique").on(t.tenantId, t.sku).where(sql`${t.merchantId} is null`),
    uniqueIndex("products_tenant_merchant_sku_unique")
      .on(t.tenantId, t.merchantId, t.sku)
      .where(sql`${t.merchantId} is not null`),
    index("products_tenant_sku_idx").on(t.tenantId, t.sku),
    uniqueIndex("products_tenant_barcode_unique")
      .on(t.tenantId, t.barcode)
      .where(sql`${t.barcode} is not null and ${t.merchantId} is null`),
    uniqueIndex("products_tenant_merchant_barcode_unique")
      .on(t.tenantId, t.merchantId, t.barcode)
      .where(sql`${t.barcode} is not null and ${t.merchantId} is not null`),
    index("products_tenant_barcode_idx").on(t.tenantId, t.barcode),
    index("products_tenant_created_idx").on(t.tenantId, t.createdAt, t.id),
    index("products_tenant_updated_idx").on(t.tenantId, t.updatedAt, t.id),
    index("products_tenant_name_idx").on(t.tenantId, t.name, t.id),
    index("products_tenant_price_idx").on(t.tenantId, t.priceE4, t.id),
    index("products_tenant_category_created_idx").on(t.tenantId, t.category, t.createdAt, t.id),
    index("products_tenant_status_created_idx").on(t.tenantId, t.status, t.createdAt, t.id),
    index("products_tenant_merchant_idx").on(t.tenantId, t.merchantId, t.createdAt, t.id),
    check("products_status_check", sql`${t.status} in ('Active', 'Inactive')`),
    check("products_reorder_point_check", sql`${t.reorderPoint} >= 0`),
    check("products_tracking_check", sql`${t.tracking} in ('none', 'lot', 'serial')`),
    check("products_type_check", sql`${t.type} in ('stocked', 'kit')`),
  ],
);

/**
 * A product's pack sizes (`case` = 12 units). Stock stays in base units; a packaging only converts what a caller
 * sends. A packaging's barcode is unique among its product's owner's packagings and products (triggers, migration
 * 0018: the owner is the product's merchant, which this table does not carry).
 */
export const productPackagings = sqliteTable(
  "product_packagings",
  {
    tenantId: text("tenant_id").notNull(),
    productId: text("product_id")
      .notNull()
      .references(() => products.id),
    code: text("code").notNull(),
    name: text("name").notNull(),
    quantity: integer("quantity").notNull(),
    barcode: text("barcode"),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.productId, t.code] }),
    index("product_packagings_tenant_barcode_idx").on(t.tenantId, t.barcode),
    check("product_packagings_quantity_check", sql`${t.quantity} >= 1`),
  ],
);

/** What one unit of a kit is made of: `quantity` units of each stocked component. */
export const kitComponents = sqliteTable(
  "kit_components",
  {
    tenantId: text("tenant_id").notNull(),
    kitId: text("kit_id")
      .notNull()
      .references(() => products.id),
    componentId: text("component_id")
      .notNull()
      .references(() => products.id),
    quantity: integer("quantity").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.kitId, t.componentId] }),
    index("kit_components_tenant_component_idx").on(t.tenantId, t.componentId),
    check("kit_components_quantity_check", sql`${t.quantity} >= 1`),
  ],
);

/** The product a row of a stock table is about (lots, serial numbers, stock levels). */
export const productIdColumn = () =>
  text("product_id")
    .notNull()
    .references(() => products.id);

export const warehouses = sqliteTable(
  "warehouses",
  {
    ...tenantRowKey(),
    code: text("code").notNull(),
    name: text("name").notNull(),
    address: text("address", { mode: "json" }).$type<Record<string, string> | null>(),
    active: integer("active", { mode: "boolean" }).notNull().default(true),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex("warehouses_tenant_code_unique").on(t.tenantId, t.code),
    index("warehouses_tenant_created_idx").on(t.tenantId, t.createdAt, t.id),
  ],
);

export const locationTypes = ["zone", "aisle", "rack", "shelf", "bin", "dock", "staging", "packing"] as const;

export const locations = sqliteTable(
  "locations",
  {
    ...tenantRowKey(),
    warehouseId: text("warehouse_id")
      .notNull()
      .references(() => warehouses.id),
    code: text("code").notNull(),
    name: text("name").notNull(),
    type: text("type", { enum: locationTypes }).notNull(),
    parentId: text("parent_id"),
    // Walking order for pick lists (lower first, then code); null: after every numbered one.
    pickSequence: integer("pick_sequence"),
    active: integer("active", { mode: "boolean" }).notNull().default(true),
    // Whether its stock can be sold: stock at a non-sellable location (quarantine) counts in on hand but is never
    // available, reserved, allocated or picked (the trigger of migration 0010 refuses reserving it).
    sellable: integer("sellable", { mode: "boolean" }).notNull().default(true),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex("locations_tenant_warehouse_code_unique").on(t.tenantId, t.warehouseId, t.code),
    index("locations_tenant_created_idx").on(t.tenantId, t.createdAt, t.id),
    index("locations_tenant_type_idx").on(t.tenantId, t.type, t.createdAt),
    check(
      "locations_type_check",
      sql`${t.type} in ('zone', 'aisle', 'rack', 'shelf', 'bin', 'dock', 'staging', 'packing')`,
    ),
  ],
);

// How many products each tenant has, kept exact by triggers on products (migration 0002), so an
// unfiltered product list reports its total without counting every row.
export const productCounts = sqliteTable("product_counts", {
  tenantId: text("tenant_id").primaryKey(),
  count: integer("count").notNull().default(0),
});
