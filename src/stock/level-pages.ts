import { count, eq, inArray, type SQL } from "drizzle-orm";
import type { TenantDb } from "../db/client";
import { readPage } from "../db/pages";
import { lots, products, stockLevels } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import type { PageQuery } from "../http/pagination";
import { levelOrder, levelsWithProducts, selectStockLevels } from "./projections";

/** A page of stock levels as the API shows them, in list order, with how many match `conditions`. */
export function stockLevelPage(tdb: TenantDb, conditions: (SQL | undefined)[], query: PageQuery) {
  return readPage(tdb, query, {
    rows: selectStockLevels(tdb, ...conditions),
    order: levelOrder,
    count: tdb.db
      .select({ value: count() })
      .from(stockLevels)
      .innerJoin(products, levelsWithProducts(tdb))
      .where(inTenant(tdb, stockLevels, ...conditions)),
  });
}

/** Levels of one lot, by id or by number (a number is unique per product, so it may name several lots). */
export function lotFilters(tdb: TenantDb, query: { lotId?: string; lotNumber?: string }) {
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
