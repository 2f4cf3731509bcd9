import { and, asc, count, eq, gt, lte, type SQL, sql } from "drizzle-orm";
import { type DrizzleQuery, runBatch } from "../db/batch";
import type { TenantDb } from "../db/client";
import { lots, products, stockLevels, stockMovements, warehouses } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import type { CsvPage } from "../http/csv-stream";
import { offsetOf, type PageQuery, paged } from "../http/pagination";
import { isSellable, lastMovementAt, today, withLot } from "../stock";

/** The filters every per-product report takes; `asOf` (valuation only) reads on-hand figures from the ledger. */
export interface StockFilters {
  warehouseId?: string;
  category?: string;
  asOf?: string;
}

/** A level's on hand: now, or at `asOf` (its last ledger row then, one index probe: see src/stock/as-of.ts). */
const levelOnHand = (tdb: TenantDb, asOf: string | undefined) =>
  asOf
    ? sql`coalesce((select ${stockMovements.onHandAfter} from ${stockMovements}
        where ${stockMovements}.rowid = (${lastMovementAt(tdb, asOf)})), 0)`
    : sql`${stockLevels.onHand}`;

/** Sums of the grouped (product, warehouse), for a report's `having`. */
export interface PositionSums {
  onHand: SQL;
  reserved: SQL;
  /**
   * Units of lots expired (by `asOf`'s day, or today) that no order holds, at sellable locations: on hand,
   * never available.
   */
  expired: SQL;
  /** Units at non-sellable locations (quarantine): on hand, never available, never reserved. */
  nonSellable: SQL;
}

// The ledger keeps no reservations: stock as of a past instant has none.
const positionSums = (tdb: TenantDb, asOf: string | undefined): PositionSums => {
  const onHand = levelOnHand(tdb, asOf);
  const reserved = asOf ? sql`0` : sql`${stockLevels.reserved}`;
  const day = asOf ? asOf.slice(0, 10) : today();
  // A location's sellable flag now, also for a past instant: the flag keeps no history.
  const sellable = isSellable(stockLevels.locationId);
  return {
    onHand: sql`sum(${onHand})`,
    reserved: sql`sum(${reserved})`,
    expired: sql`coalesce(sum(case when ${sellable} and ${lots.expiresAt} <= ${day} then ${onHand} - ${reserved} else 0 end), 0)`,
    nonSellable: sql`coalesce(sum(case when ${sellable} then 0 else ${onHand} end), 0)`,
  };
};

/** What a per-product report keeps: a condition on the rows and one on the grouped sums. */
export interface PositionReport {
  where?: SQL;
  having: (sums: PositionSums) => SQL;
}

/**
 * Each product's stock per warehouse holding it: units on hand and reserved summed over the warehouse's
 * locations, and the product's cost (its value there is onHand x costE4, exact as a bigint).
 * The report's `having` keeps the lines it is about; `skuRange` limits a CSV page.
 * The ids come from stock_levels, never as two columns both named `id`: drizzle's batch maps result
 * columns by name, so such a pair would collide.
 */
export function stockPositions(tdb: TenantDb, filters: StockFilters, report: PositionReport, skuRange?: SQL) {
  const sums = positionSums(tdb, filters.asOf);
  return (
    tdb.db
      .select({
        productId: stockLevels.productId,
        sku: products.sku,
        productName: products.name,
        category: products.category,
        warehouseId: stockLevels.warehouseId,
        warehouseCode: warehouses.code,
        onHand: sql<number>`${sums.onHand}`.mapWith(Number).as("on_hand"),
        reserved: sql<number>`${sums.reserved}`.mapWith(Number).as("reserved"),
        expired: sql<number>`${sums.expired}`.mapWith(Number).as("expired"),
        nonSellable: sql<number>`${sums.nonSellable}`.mapWith(Number).as("non_sellable"),
        reorderPoint: products.reorderPoint,
        costE4: products.costE4,
      })
      // CROSS JOIN keeps products as SQLite's outer loop, so a SKU range is read through the SKU index
      // (a CSV page then costs its own products, not the whole catalog).
      .from(products)
      .crossJoin(stockLevels)
      .innerJoin(warehouses, inTenant(tdb, warehouses, eq(warehouses.id, stockLevels.warehouseId)))
      .leftJoin(lots, withLot(tdb, stockLevels.lotId))
      .where(
        inTenant(
          tdb,
          products,
          inTenant(tdb, stockLevels, eq(stockLevels.productId, products.id)),
          filters.warehouseId ? eq(stockLevels.warehouseId, filters.warehouseId) : undefined,
          filters.category ? eq(products.category, filters.category) : undefined,
          report.where,
          skuRange,
        ),
      )
      .groupBy(stockLevels.productId, stockLevels.warehouseId)
      .having(report.having(sums))
  );
}

export type StockPosition = Awaited<ReturnType<typeof stockPositions>>[number];

/** How many products a CSV page of a per-product report covers. */
export const PRODUCTS_PER_PAGE = 500;

/**
 * The next PRODUCTS_PER_PAGE products by SKU after `afterSku`, as a condition on `products.sku`, and the
 * cursor after them (null when this range reaches the end). One indexed read of at most 500 SKUs, so a
 * CSV page of a report grouped per product costs its own size, not the whole catalog's.
 */
async function nextSkuRange(tdb: TenantDb, afterSku: string | null) {
  const after = afterSku === null ? undefined : gt(products.sku, afterSku);
  const [last] = await tdb.db
    .select({ sku: products.sku })
    .from(products)
    .where(inTenant(tdb, products, after))
    .orderBy(asc(products.sku))
    .limit(1)
    .offset(PRODUCTS_PER_PAGE - 1);
  return last
    ? { condition: and(after, lte(products.sku, last.sku)), next: last.sku }
    : { condition: after, next: null };
}

/** All lines of a per-product report, as a subquery to aggregate (totals read in the same batch as a page). */
const allLines = (tdb: TenantDb, filters: StockFilters, report: PositionReport) =>
  stockPositions(tdb, filters, report).as("lines");
export type PositionLines = ReturnType<typeof allLines>;

/**
 * A per-product report's reads, from the positions it keeps (`report`) and what a line of it shows (`toLine`):
 * a JSON page (by SKU, then warehouse code) with the number of lines, and a CSV page (the next SKU range).
 */
export function positionReport<Line>(report: PositionReport, toLine: (position: StockPosition) => Line) {
  return {
    /** A page of lines and their number, read in one batch with `more` (statements over all the lines). */
    async page<const More extends Record<string, DrizzleQuery>>(
      tdb: TenantDb,
      query: StockFilters & PageQuery,
      more: (lines: PositionLines) => More = () => ({}) as More,
    ) {
      const lines = allLines(tdb, query, report);
      const {
        page,
        count: counted,
        ...rest
      } = await runBatch(tdb, {
        ...more(lines),
        page: stockPositions(tdb, query, report)
          .orderBy(asc(products.sku), asc(warehouses.code))
          .limit(query.pageSize)
          .offset(offsetOf(query)),
        count: tdb.db.select({ value: count() }).from(lines),
      });
      // The batch's rows lose their type through the generic `more`; they are the positions selected above.
      const items: Line[] = (page as StockPosition[]).map(toLine);
      return { lines: paged(items, counted[0]?.value ?? 0, query), ...rest };
    },

    /** A CSV page: the lines of the next SKU range after `afterSku`, by SKU then warehouse code. */
    async csvPage(
      tdb: TenantDb,
      filters: StockFilters,
      afterSku: string | null,
    ): Promise<CsvPage<Line, string>> {
      const range = await nextSkuRange(tdb, afterSku);
      const positions = await stockPositions(tdb, filters, report, range.condition).orderBy(
        asc(products.sku),
        asc(warehouses.code),
      );
      return { rows: positions.map(toLine), next: range.next };
    },
  };
}
