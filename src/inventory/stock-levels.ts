import { eq, lte, or, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import type { TenantDb } from "../db/client";
import { lots, products, stockLevels } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import { contains, startsWith } from "../db/text-match";
import { pageOf } from "../http/pagination";
import { validationError } from "../http/validation";
import {
  asOfInstant,
  availableUnits,
  isSellable,
  type KitStockLevelRecord,
  kitStockLevels,
  levelsInPacks,
  lotFilters,
  stockLevelPage,
  today,
} from "../stock";

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
export async function listStock(tdb: TenantDb, query: StockQuery) {
  if (query.productId) {
    const kit = await kitStockLevels(tdb, query.productId, query.warehouseId);
    if (kit) return kitPage(kit, query);
  }
  const filters = [
    query.productId ? eq(stockLevels.productId, query.productId) : undefined,
    query.locationId ? eq(stockLevels.locationId, query.locationId) : undefined,
    query.warehouseId ? eq(stockLevels.warehouseId, query.warehouseId) : undefined,
    query.sku ? eq(products.sku, query.sku) : undefined,
    query.search
      ? or(startsWith(products.sku, query.search), contains(products.name, query.search))
      : undefined,
    // The location's flag now, also with asOf (a location's sellability has no history).
    query.sellable === undefined
      ? undefined
      : sql`${isSellable(stockLevels.locationId)} = ${query.sellable ? 1 : 0}`,
    ...lotFilters(tdb, query),
  ];
  if (query.asOf) {
    if (query.belowReorderPoint) {
      throw validationError(["belowReorderPoint: compares current stock; not available with asOf"]);
    }
    if (query.packaging) throw validationError(["packaging: shows current stock; not available with asOf"]);
    return listStockAsOf(tdb, filters, query, asOfInstant(query.asOf));
  }
  const page = await stockLevelPage(
    tdb,
    [
      ...filters,
      // The product's available stock over all its locations, compared with its reorder point.
      query.belowReorderPoint ? lte(productAvailable(tdb), products.reorderPoint) : undefined,
    ],
    query,
  );
  return query.packaging ? { ...page, items: await levelsInPacks(tdb, page.items, query.packaging) } : page;
}

/**
 * A kit's stock: its availability per warehouse (the filters of a level, a lot or packs do not apply to a kit,
 * which has none: a 400 names them).
 */
function kitPage(levels: KitStockLevelRecord[], query: StockQuery) {
  const refused = (
    [
      "locationId",
      "lotId",
      "lotNumber",
      "asOf",
      "belowReorderPoint",
      "packaging",
      "sku",
      "search",
      "sellable",
    ] as const
  )
    .filter((field) => query[field] !== undefined)
    .map(
      (field) => `${field}: a kit holds no stock; its availability is per warehouse (productId, warehouseId)`,
    );
  if (refused.length) throw validationError(refused);
  return pageOf(levels, query);
}
