import { and, asc, eq, gt, lte, type SQL, sql } from "drizzle-orm";
import type { TenantDb } from "../db/client";
import { lots, products, stockLevels, stockMovements, warehouses } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import { withLot } from "../inventory/projections";
import { lastMovementAt } from "../inventory/stock-as-of";
import { today } from "../lots/expiry";
import type { CsvPage } from "./csv";

/** The filters every per-product report takes; `asOf` (valuation only) reads on-hand figures from the ledger. */
export interface StockFilters {
  warehouseId?: string;
  category?: string;
  asOf?: string;
}

/** A level's on hand: now, or at `asOf` (its last ledger row then, one index probe: see stock-as-of.ts). */
const levelOnHand = (tdb: TenantDb, asOf: string | undefined) =>
  asOf
    ? sql`coalesce((select ${stockMovements.onHandAfter} from ${stockMovements}
        where ${stockMovements}.rowid = (${lastMovementAt(tdb, asOf)})), 0)`
    : sql`${stockLevels.onHand}`;

/** Sums of the grouped (product, warehouse), for a report's `having`. */
export interface PositionSums {
  onHand: SQL;
  reserved: SQL;
  /** Units of lots expired (by `asOf`'s day, or today) that no order holds: on hand, never available. */
  expired: SQL;
}

// The ledger keeps no reservations: stock as of a past instant has none.
const positionSums = (tdb: TenantDb, asOf: string | undefined): PositionSums => {
  const onHand = levelOnHand(tdb, asOf);
  const reserved = asOf ? sql`0` : sql`${stockLevels.reserved}`;
  const day = asOf ? asOf.slice(0, 10) : today();
  return {
    onHand: sql`sum(${onHand})`,
    reserved: sql`sum(${reserved})`,
    expired: sql`coalesce(sum(case when ${lots.expiresAt} <= ${day} then ${onHand} - ${reserved} else 0 end), 0)`,
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

/** A JSON page of a per-product report's lines, by SKU then warehouse code. */
export const positionsPage = (
  tdb: TenantDb,
  filters: StockFilters,
  report: PositionReport,
  window: { offset: number; limit: number },
) =>
  stockPositions(tdb, filters, report)
    .orderBy(asc(products.sku), asc(warehouses.code))
    .limit(window.limit)
    .offset(window.offset);

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

/** A CSV page of a per-product report: the lines of the next SKU range, by SKU then warehouse code. */
export async function positionsCsvPage<Row>(
  tdb: TenantDb,
  filters: StockFilters,
  report: PositionReport,
  afterSku: string | null,
  toRow: (position: StockPosition) => Row,
): Promise<CsvPage<Row, string>> {
  const range = await nextSkuRange(tdb, afterSku);
  const lines = await stockPositions(tdb, filters, report, range.condition).orderBy(
    asc(products.sku),
    asc(warehouses.code),
  );
  return { rows: lines.map(toRow), next: range.next };
}
