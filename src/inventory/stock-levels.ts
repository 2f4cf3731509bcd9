import { and, asc, count, eq, lte, type SQL, sql } from "drizzle-orm";
import type { TenantDb } from "../db/client";
import { locations, products, stockLevels } from "../db/schema";
import { notFound } from "../http/errors";
import { offsetOf, type PageQuery, paged } from "../http/pagination";
import { selectStockLevels } from "./projections";
import type { StockQuery } from "./schemas";

function pageOf(tdb: TenantDb, conditions: (SQL | undefined)[], query: PageQuery) {
  return tdb.db.batch([
    selectStockLevels(tdb, ...conditions)
      .orderBy(asc(products.sku), asc(locations.code))
      .limit(query.pageSize)
      .offset(offsetOf(query)),
    tdb.db
      .select({ value: count() })
      .from(stockLevels)
      .innerJoin(products, and(eq(products.tenantId, tdb.tenantId), eq(products.id, stockLevels.productId)))
      .where(and(eq(stockLevels.tenantId, tdb.tenantId), ...conditions)),
  ]);
}

/** `GET /inventory/stock`, ordered by SKU then location code. */
export async function listStock(tdb: TenantDb, query: StockQuery) {
  const conditions = [
    query.productId ? eq(stockLevels.productId, query.productId) : undefined,
    query.locationId ? eq(stockLevels.locationId, query.locationId) : undefined,
    query.warehouseId ? eq(stockLevels.warehouseId, query.warehouseId) : undefined,
    query.sku ? eq(products.sku, query.sku) : undefined,
    // The product's available stock over all its locations, compared with its reorder point.
    query.belowReorderPoint
      ? lte(
          sql`(select sum(s.on_hand - s.reserved) from stock_levels s where s.tenant_id = ${tdb.tenantId} and s.product_id = ${stockLevels.productId})`,
          products.reorderPoint,
        )
      : undefined,
  ];
  const [rows, [total]] = await pageOf(tdb, conditions, query);
  return paged(rows, total?.value ?? 0, query);
}

/** `GET /locations/{id}/inventory`: 404 for a location the tenant does not have. */
export async function listLocationStock(tdb: TenantDb, locationId: string, query: PageQuery) {
  const [location] = await tdb.db
    .select({ id: locations.id })
    .from(locations)
    .where(and(eq(locations.tenantId, tdb.tenantId), eq(locations.id, locationId)))
    .limit(1);
  if (!location) throw notFound("Location");
  const [rows, [total]] = await pageOf(tdb, [eq(stockLevels.locationId, locationId)], query);
  return paged(rows, total?.value ?? 0, query);
}
