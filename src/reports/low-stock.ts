import { count, eq, sql } from "drizzle-orm";
import { runBatch } from "../db/batch";
import type { TenantDb } from "../db/client";
import { products } from "../db/schema/tenant";
import { offsetOf, paged } from "../http/pagination";
import type { CsvColumn } from "./csv";
import type { LowStockQuery } from "./schemas";
import {
  type PositionSums,
  positionsCsvPage,
  positionsPage,
  type StockFilters,
  type StockPosition,
  stockPositions,
} from "./stock-position";

/**
 * Every active product whose available quantity in a warehouse where it is stocked is at or below its
 * reorder point (the `inventory.low_stock` rule). Inactive products are not reordered, so not listed.
 * Only unexpired stock is available: expired lots' units count as on hand but not as available.
 */
const lowStock = {
  where: eq(products.status, "Active"),
  having: (sums: PositionSums) =>
    sql`${sums.onHand} - ${sums.reserved} - ${sums.expired} <= ${products.reorderPoint}`,
};

export type LowStockLine = Omit<StockPosition, "costE4"> & { available: number; shortfall: number };

function toLine(position: StockPosition): LowStockLine {
  const { costE4: _cost, ...line } = position;
  const available = line.onHand - line.reserved - line.expired;
  return { ...line, available, shortfall: line.reorderPoint - available };
}

/** A page of the CSV download: the lines of the next range of products. */
export function lowStockPage(tenantDb: TenantDb, filters: StockFilters, afterSku: string | null) {
  return positionsCsvPage(tenantDb, filters, lowStock, afterSku, toLine);
}

export async function lowStockReport(tenantDb: TenantDb, query: LowStockQuery) {
  const read = await runBatch(tenantDb, {
    page: positionsPage(tenantDb, query, lowStock, { offset: offsetOf(query), limit: query.pageSize }),
    count: tenantDb.db.select({ value: count() }).from(stockPositions(tenantDb, query, lowStock).as("low")),
  });
  return paged(read.page.map(toLine), read.count[0]?.value ?? 0, query);
}

export const lowStockColumns: CsvColumn<LowStockLine>[] = [
  { header: "sku", cell: (r) => r.sku },
  { header: "productName", cell: (r) => r.productName },
  { header: "category", cell: (r) => r.category },
  { header: "warehouseCode", cell: (r) => r.warehouseCode },
  { header: "onHand", cell: (r) => r.onHand },
  { header: "reserved", cell: (r) => r.reserved },
  { header: "expired", cell: (r) => r.expired },
  { header: "available", cell: (r) => r.available },
  { header: "reorderPoint", cell: (r) => r.reorderPoint },
  { header: "shortfall", cell: (r) => r.shortfall },
  { header: "productId", cell: (r) => r.productId },
  { header: "warehouseId", cell: (r) => r.warehouseId },
];
