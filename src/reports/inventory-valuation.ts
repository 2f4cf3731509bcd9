import { and, asc, count, eq, type SQL, sql } from "drizzle-orm";
import type { TenantDb } from "../db/client";
import { products, stockLevels, warehouses } from "../db/schema";
import { offsetOf, paged } from "../http/pagination";
import { fromE4, fromE4OrNull } from "../money";
import type { CsvColumn } from "./csv";
import { skuRangePage } from "./product-range";
import type { InventoryValuationQuery } from "./schemas";

type Filters = Pick<InventoryValuationQuery, "warehouseId" | "category">;

export interface ValuationRow {
  productId: string;
  sku: string;
  productName: string;
  category: string | null;
  warehouseId: string;
  warehouseCode: string;
  onHand: number;
  unitCost: number | null;
  value: number | null;
}

// Exact: integer units x integer ten-thousandths, summed by SQLite as 64-bit integers.
const onHandSum = sql`sum(${stockLevels.onHand})`;
const valueE4Sum = sql`sum(${stockLevels.onHand} * ${products.costE4})`;

/**
 * Every (product, warehouse) holding stock, with its quantity and value: the report's lines.
 * The ids come from stock_levels (`product_id`, `warehouse_id`), never as two columns both named `id`:
 * drizzle's D1 batch maps result columns by name, so such a pair would collide.
 */
function lines({ db, tenantId }: TenantDb, filters: Filters, skuRange?: SQL) {
  return (
    db
      .select({
        productId: stockLevels.productId,
        sku: products.sku,
        productName: products.name,
        category: products.category,
        warehouseId: stockLevels.warehouseId,
        warehouseCode: warehouses.code,
        onHand: sql<number>`${onHandSum}`.mapWith(Number).as("on_hand"),
        reserved: sql<number>`sum(${stockLevels.reserved})`.mapWith(Number).as("reserved"),
        costE4: products.costE4,
        valueE4: sql<number | null>`${valueE4Sum}`.as("value_e4"),
      })
      // CROSS JOIN keeps products as SQLite's outer loop, so a SKU range is read through the SKU index
      // (a CSV page then costs its own products, not the whole catalog).
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
          filters.warehouseId ? eq(stockLevels.warehouseId, filters.warehouseId) : undefined,
          filters.category ? eq(products.category, filters.category) : undefined,
          skuRange,
        ),
      )
      .groupBy(stockLevels.productId, stockLevels.warehouseId)
      // A product with nothing on hand in a warehouse has no value there: it is not a line of the report.
      .having(sql`${onHandSum} > 0`)
  );
}

function linesQuery(tenantDb: TenantDb, filters: Filters, window: { offset: number; limit: number }) {
  return lines(tenantDb, filters)
    .orderBy(asc(products.sku), asc(warehouses.code))
    .limit(window.limit)
    .offset(window.offset);
}

type LineRecord = Awaited<ReturnType<typeof linesQuery>>[number];

// `reserved` only feeds the totals: a line is about value, and its CSV columns stay as they are.
function toRow({ costE4, valueE4, reserved: _reserved, ...line }: LineRecord): ValuationRow {
  return {
    ...line,
    unitCost: fromE4OrNull(costE4),
    value: valueE4 === null ? null : fromE4(Number(valueE4)),
  };
}

/** A page of the CSV download: the lines of the next range of products. */
export function valuationPage(tenantDb: TenantDb, filters: Filters, afterSku: string | null) {
  return skuRangePage(tenantDb, afterSku, (range) => lines(tenantDb, filters, range), toRow);
}

/**
 * A page of lines plus the totals per warehouse and overall: units on hand, reserved and available, and value
 * (products without a cost add no value).
 */
export async function inventoryValuation(tenantDb: TenantDb, query: InventoryValuationQuery) {
  const { db } = tenantDb;
  const all = lines(tenantDb, query).as("lines");
  const [page, [counted], byWarehouse] = await db.batch([
    linesQuery(tenantDb, query, { offset: offsetOf(query), limit: query.pageSize }),
    db.select({ value: count() }).from(all),
    db
      .select({
        warehouseId: all.warehouseId,
        warehouseCode: all.warehouseCode,
        onHand: sql<number>`sum(${all.onHand})`.mapWith(Number),
        reserved: sql<number>`sum(${all.reserved})`.mapWith(Number),
        valueE4: sql<number>`coalesce(sum(${all.valueE4}), 0)`.mapWith(Number),
      })
      .from(all)
      .groupBy(all.warehouseId)
      .orderBy(asc(all.warehouseCode)),
  ]);
  const onHand = byWarehouse.reduce((sum, w) => sum + w.onHand, 0);
  const reserved = byWarehouse.reduce((sum, w) => sum + w.reserved, 0);
  return {
    ...paged(page.map(toRow), counted?.value ?? 0, query),
    totals: {
      onHand,
      reserved,
      available: onHand - reserved,
      value: fromE4(byWarehouse.reduce((sum, w) => sum + w.valueE4, 0)),
      byWarehouse: byWarehouse.map(({ valueE4, ...w }) => ({
        ...w,
        available: w.onHand - w.reserved,
        value: fromE4(valueE4),
      })),
    },
  };
}

export const valuationColumns: CsvColumn<ValuationRow>[] = [
  { header: "sku", cell: (r) => r.sku },
  { header: "productName", cell: (r) => r.productName },
  { header: "category", cell: (r) => r.category },
  { header: "warehouseCode", cell: (r) => r.warehouseCode },
  { header: "onHand", cell: (r) => r.onHand },
  { header: "unitCost", cell: (r) => r.unitCost },
  { header: "value", cell: (r) => r.value },
  { header: "productId", cell: (r) => r.productId },
  { header: "warehouseId", cell: (r) => r.warehouseId },
];
