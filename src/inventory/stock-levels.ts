import { count, eq, inArray, lte, type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import type { TenantDb } from "../db/client";
import { readPage } from "../db/pages";
import { locations, lots, products, stockLevels } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import { notFound } from "../http/errors";
import { offsetOf, type PageQuery } from "../http/pagination";
import { validationError } from "../http/validation";
import { availableUnits, today } from "../lots/expiry";
import { levelOrder, levelsWithProducts, selectStockLevels } from "./projections";
import type { LocationStockQuery, StockQuery } from "./schemas";
import { asOfInstant, listStockAsOf } from "./stock-as-of";

const all = alias(stockLevels, "all_levels");
const allLots = alias(lots, "all_lots");

/** The available stock of the outer query's product over all its locations (expired lots give none). */
const productAvailable = (tdb: TenantDb) =>
  tdb.db
    .select({ available: sql<number>`sum(${availableUnits(all, allLots.expiresAt, today())})` })
    .from(all)
    .leftJoin(allLots, inTenant(tdb, allLots, eq(allLots.id, all.lotId)))
    .where(inTenant(tdb, all, eq(all.productId, stockLevels.productId)));

function pageOf(tdb: TenantDb, conditions: (SQL | undefined)[], query: PageQuery) {
  return readPage(tdb, query, {
    rows: selectStockLevels(tdb, ...conditions)
      .orderBy(...levelOrder)
      .limit(query.pageSize)
      .offset(offsetOf(query)),
    count: tdb.db
      .select({ value: count() })
      .from(stockLevels)
      .innerJoin(products, levelsWithProducts(tdb))
      .where(inTenant(tdb, stockLevels, ...conditions)),
  });
}

/** Levels of one lot, by id or by number (a number is unique per product, so it may name several lots). */
function lotFilters(tdb: TenantDb, query: { lotId?: string; lotNumber?: string }) {
  return [
    query.lotId ? eq(stockLevels.lotId, query.lotId) : undefined,
    query.lotNumber
      ? inArray(
          stockLevels.lotId,
          tdb.db
            .select({ id: lots.id })
            .from(lots)
            .where(inTenant(tdb, lots, eq(lots.number, query.lotNumber))),
        )
      : undefined,
  ];
}

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
  return pageOf(
    tdb,
    [
      ...filters,
      // The product's available stock over all its locations, compared with its reorder point.
      query.belowReorderPoint ? lte(productAvailable(tdb), products.reorderPoint) : undefined,
    ],
    query,
  );
}

/** `GET /locations/{id}/inventory`: 404 for a location the tenant does not have. */
export async function listLocationStock(tdb: TenantDb, locationId: string, query: LocationStockQuery) {
  const [location] = await tdb.db
    .select({ id: locations.id })
    .from(locations)
    .where(inTenant(tdb, locations, eq(locations.id, locationId)))
    .limit(1);
  if (!location) throw notFound("Location");
  return pageOf(tdb, [eq(stockLevels.locationId, locationId), ...lotFilters(tdb, query)], query);
}
