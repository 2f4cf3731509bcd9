import { and, asc, count, eq, type SQL, sql } from "drizzle-orm";
import type { TenantDb } from "../db/client";
import { products, stockLevels, warehouses } from "../db/schema";
import { offsetOf, paged } from "../http/pagination";
import type { CsvColumn } from "./csv";
import { skuRangePage } from "./product-range";
import type { LowStockQuery } from "./schemas";

type Filters = Pick<LowStockQuery, "warehouseId" | "category">;

const onHandSum = sql`sum(${stockLevels.onHand})`;
const reservedSum = sql`sum(${stockLevels.reserved})`;

/**
 * Every active product whose available quantity in a warehouse where it is stocked is at or below its
 * reorder point (the `inventory.low_stock` rule). Inactive products are not reordered, so not listed.
 */
function lowStock({ db, tenantId }: TenantDb, filters: Filters, skuRange?: SQL) {
  return (
    db
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
      // CROSS JOIN keeps products as SQLite's outer loop, so a SKU range is read through the SKU index.
      .from(products)
      .crossJoin(stockLevels)
      .innerJoin(
        warehouses,
        and(eq(warehouses.id, stockLevels.warehouseId), eq(warehouses.tenantId, tenantId)),
      )
      .where(
        and(
          eq(products.tenantId, tenantId),
          eq(stockLevels.tenantId, tenantId),
          eq(stockLevels.productId, products.id),
          eq(products.status, "Active"),
          filters.warehouseId ? eq(stockLevels.warehouseId, filters.warehouseId) : undefined,
          filters.category ? eq(products.category, filters.category) : undefined,
          skuRange,
        ),
      )
      .groupBy(stockLevels.productId, stockLevels.warehouseId)
      .having(sql`${onHandSum} - ${reservedSum} <= ${products.reorderPoint}`)
  );
}

function lowStockQuery(tenantDb: TenantDb, filters: Filters, window: { offset: number; limit: number }) {
  return lowStock(tenantDb, filters)
    .orderBy(asc(products.sku), asc(warehouses.code))
    .limit(window.limit)
    .offset(window.offset);
}

type LowStockRecord = Awaited<ReturnType<typeof lowStockQuery>>[number];

export type LowStockRow = LowStockRecord & { available: number; shortfall: number };

function toRow(record: LowStockRecord): LowStockRow {
  const available = record.onHand - record.reserved;
  return { ...record, available, shortfall: record.reorderPoint - available };
}

/** A page of the CSV download: the lines of the next range of products. */
export function lowStockPage(tenantDb: TenantDb, filters: Filters, afterSku: string | null) {
  return skuRangePage(tenantDb, afterSku, (range) => lowStock(tenantDb, filters, range), toRow);
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
