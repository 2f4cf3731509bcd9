import { eq, lte, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import type { TenantDb } from "../db/client";
import { lots, products, stockLevels } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import { validationError } from "../http/validation";
import { asOfInstant } from "../stock/as-of";
import { availableUnits, today } from "../stock/expiry";
import { lotFilters, stockLevelPage } from "../stock/level-pages";
import type { StockQuery } from "./schemas";
import { listStockAsOf } from "./stock-as-of";

const all = alias(stockLevels, "all_levels");
const allLots = alias(lots, "all_lots");

/** The available stock of the outer query's product over all its locations (expired lots give none). */
const productAvailable = (tdb: TenantDb) =>
  tdb.db
    .select({ available: sql<number>`sum(${availableUnits(all, allLots.expiresAt, today())})` })
    .from(all)
    .leftJoin(allLots, inTenant(tdb, allLots, eq(allLots.id, all.lotId)))
    .where(inTenant(tdb, all, eq(all.productId, stockLevels.productId)));

/**
 * `GET /inventory/stock`, ordered by SKU, location code, then lot expiry; with `asOf`, as it was at that instant.
 */
export function listStock(tdb: TenantDb, query: StockQuery) {
  const filters = [
    query.productId ? eq(stockLevels.productId, query.productId) : undefined,
    query.locationId ? eq(stockLevels.locationId, query.locationId) : undefined,
    query.warehouseId ? eq(stockLevels.warehouseId, query.warehouseId) : undefined,
    query.sku ? eq(products.sku, query.sku) : undefined,
    ...lotFilters(tdb, query),
  ];
  if (query.asOf) {
    if (query.belowReorderPoint) {
      throw validationError(["belowReorderPoint: compares current stock; not available with asOf"]);
    }
    return listStockAsOf(tdb, filters, query, asOfInstant(query.asOf));
  }
  return stockLevelPage(
    tdb,
    [
      ...filters,
      // The product's available stock over all its locations, compared with its reorder point.
      query.belowReorderPoint ? lte(productAvailable(tdb), products.reorderPoint) : undefined,
    ],
    query,
  );
}
