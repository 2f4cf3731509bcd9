import { and, asc, count, eq, gte, type SQL, sql } from "drizzle-orm";
import type { TenantDb } from "../db/client";
import { products, stockLevels, warehouses } from "../db/schema";
import { offsetOf, paged } from "../http/pagination";
import type { CsvColumn } from "./csv";
import type { LowStockQuery } from "./schemas";
import { afterOf, offsetIn, type RowWindow } from "./window";

type Filters = Pick<LowStockQuery, "warehouseId" | "category">;
type SkuWarehouseKey = { sku: string; warehouseCode: string };

const onHandSum = sql`sum(${stockLevels.onHand})`;
const reservedSum = sql`sum(${stockLevels.reserved})`;

/**
 * Every active product whose available quantity in a warehouse where it is stocked is at or below its
 * reorder point (the `inventory.low_stock` rule). Inactive products are not reordered, so not listed.
 */
function lowStock({ db, tenantId }: TenantDb, filters: Filters, keyset?: SQL) {
  return db
    .select({
      // From stock_levels: drizzle's D1 batch maps columns by name, so products.id and warehouses.id would collide.
      productId: stockLevels.productId,
      sku: products.sku,
      productName: products.name,
      category: products.category,
      warehouseId: stockLevels.warehouseId,
      warehouseCode: warehouses.code,
      onHand: sql<number>`${onHandSum}`.mapWith(Number).as("on_hand"),
      reserved: sql<number>`${reservedSum}`.mapWith(Number).as("reserved"),
      reorderPoint: products.reorderPoint,
    })
    .from(stockLevels)
    .innerJoin(products, and(eq(products.id, stockLevels.productId), eq(products.tenantId, tenantId)))
    .innerJoin(warehouses, and(eq(warehouses.id, stockLevels.warehouseId), eq(warehouses.tenantId, tenantId)))
    .where(
      and(
        eq(stockLevels.tenantId, tenantId),
        eq(products.status, "Active"),
        filters.warehouseId ? eq(stockLevels.warehouseId, filters.warehouseId) : undefined,
        filters.category ? eq(products.category, filters.category) : undefined,
        keyset,
      ),
    )
    .groupBy(stockLevels.productId, stockLevels.warehouseId)
    .having(sql`${onHandSum} - ${reservedSum} <= ${products.reorderPoint}`);
}

function lowStockQuery(tenantDb: TenantDb, filters: Filters, window: RowWindow<SkuWarehouseKey>) {
  const after = afterOf(window);
  // The plain `>=` on the unique SKU lets SQLite skip the products already sent.
  const keyset = after
    ? and(
        gte(products.sku, after.sku),
        sql`(${products.sku}, ${warehouses.code}) > (${after.sku}, ${after.warehouseCode})`,
      )
    : undefined;
  return lowStock(tenantDb, filters, keyset)
    .orderBy(asc(products.sku), asc(warehouses.code))
    .limit(window.limit)
    .offset(offsetIn(window));
}

type LowStockRecord = Awaited<ReturnType<typeof lowStockQuery>>[number];

export type LowStockRow = LowStockRecord & { available: number; shortfall: number };

function toRow(record: LowStockRecord): LowStockRow {
  const available = record.onHand - record.reserved;
  return { ...record, available, shortfall: record.reorderPoint - available };
}

/** Lines by SKU then warehouse code. */
export async function lowStockRows(
  tenantDb: TenantDb,
  filters: Filters,
  window: RowWindow<LowStockRow>,
): Promise<LowStockRow[]> {
  return (await lowStockQuery(tenantDb, filters, window)).map(toRow);
}

export async function lowStockReport(tenantDb: TenantDb, query: LowStockQuery) {
  const [page, [counted]] = await tenantDb.db.batch([
    lowStockQuery(tenantDb, query, { offset: offsetOf(query), limit: query.pageSize }),
    tenantDb.db.select({ value: count() }).from(lowStock(tenantDb, query).as("low")),
  ]);
  return paged(page.map(toRow), counted?.value ?? 0, query);
}

export const lowStockColumns: CsvColumn<LowStockRow>[] = [
  { header: "sku", cell: (r) => r.sku },
  { header: "productName", cell: (r) => r.productName },
  { header: "category", cell: (r) => r.category },
  { header: "warehouseCode", cell: (r) => r.warehouseCode },
  { header: "onHand", cell: (r) => r.onHand },
  { header: "reserved", cell: (r) => r.reserved },
  { header: "available", cell: (r) => r.available },
  { header: "reorderPoint", cell: (r) => r.reorderPoint },
  { header: "shortfall", cell: (r) => r.shortfall },
  { header: "productId", cell: (r) => r.productId },
  { header: "warehouseId", cell: (r) => r.warehouseId },
];
