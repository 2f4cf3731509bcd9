import { eq, sql } from "drizzle-orm";
import type { TenantDb } from "../db/client";
import { products } from "../db/schema/tenant";
import type { CsvColumn } from "../http/csv-stream";
import { reportTypes } from "./catalogue";
import type { LowStockQuery } from "./schemas";
import { type PositionSums, positionReport, type StockPosition } from "./stock-position";

/**
 * Every active product whose available quantity in a warehouse where it is stocked is at or below its
 * reorder point (the `inventory.low_stock` rule). Inactive products are not reordered, so not listed.
 * Only unexpired stock at sellable locations is available: expired lots' units and units in quarantine count
 * as on hand but not as available.
 */
const lowStock = {
  where: eq(products.status, "Active"),
  having: (sums: PositionSums) =>
    sql`${sums.onHand} - ${sums.reserved} - ${sums.expired} - ${sums.nonSellable} <= ${products.reorderPoint}`,
};

export type LowStockLine = Omit<StockPosition, "costE4"> & { available: number; shortfall: number };

function toLine(position: StockPosition): LowStockLine {
  const { costE4: _cost, ...line } = position;
  const available = line.onHand - line.reserved - line.expired - line.nonSellable;
  return { ...line, available, shortfall: line.reorderPoint - available };
}

/** The report's reads: its JSON page and the pages of its CSV download. */
export const lowStockLines = positionReport(lowStock, toLine);

export async function lowStockReport(tenantDb: TenantDb, query: LowStockQuery) {
  return (await lowStockLines.page(tenantDb, query)).lines;
}

export const lowStockColumns: CsvColumn<LowStockLine>[] = [
  { header: "sku", cell: (r) => r.sku },
  { header: "productName", cell: (r) => r.productName },
  { header: "category", cell: (r) => r.category },
  { header: "warehouseCode", cell: (r) => r.warehouseCode },
  { header: "onHand", cell: (r) => r.onHand },
  { header: "reserved", cell: (r) => r.reserved },
  { header: "expired", cell: (r) => r.expired },
  { header: "nonSellable", cell: (r) => r.nonSellable },
  { header: "available", cell: (r) => r.available },
  { header: "reorderPoint", cell: (r) => r.reorderPoint },
  { header: "shortfall", cell: (r) => r.shortfall },
  { header: "productId", cell: (r) => r.productId },
  { header: "warehouseId", cell: (r) => r.warehouseId },
];

/** The report as `GET /reports/low-stock` serves it (serve-report.ts). */
export const servedLowStock = {
  type: reportTypes.lowStock.type,
  json: lowStockReport,
  columns: lowStockColumns,
  csvPage: lowStockLines.csvPage,
};
