import { count, eq, exists, type SQL, sql } from "drizzle-orm";
import { runBatch } from "../db/batch";
import type { TenantDb } from "../db/client";
import { products, stockLevels, stockMovements } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import { offsetOf, type PageQuery, paged } from "../http/pagination";
import { lastMovementAt, levelOrder, levelPlace, levelsWithProducts, withPlace } from "../stock";

/**
 * The keys of the page's levels that existed at `asOf` (had a ledger row by then), with how many existed in
 * all: chosen, counted (a window over them) and paged through the index alone, no ledger row read.
 */
function pageExisting(tdb: TenantDb, conditions: (SQL | undefined)[], query: PageQuery, existed: SQL) {
  const keys = tdb.db
    .select({
      productId: stockLevels.productId,
      locationId: stockLevels.locationId,
      lotId: stockLevels.lotId,
      totalCount: sql<number>`count(*) over ()`.as("total_count"),
    })
    .from(stockLevels)
    .$dynamic();
  return withPlace(tdb, keys)
    .where(inTenant(tdb, stockLevels, existed, ...conditions))
    .orderBy(...levelOrder)
    .limit(query.pageSize)
    .offset(offsetOf(query))
    .as("as_of_page");
}

/**
 * `GET /inventory/stock?asOf=`: each level's (lot's, for tracked products) onHand at that instant, the usual
 * filters and order. A level shows once it has a ledger row at or before the instant; levels are deleted only
 * with their product or location, which the list joins anyway, so today's levels are all the candidates.
 * One statement reads the page and its total, and only the page's levels read their ledger row; a page past
 * the end has no row to carry the total, so it counts again.
 */
export async function listStockAsOf(
  tdb: TenantDb,
  conditions: (SQL | undefined)[],
  query: PageQuery,
  asOf: string,
) {
  const existed = exists(lastMovementAt(tdb, asOf));
  const page = pageExisting(tdb, conditions, query, existed);
  const levels = tdb.db
    .select({
      ...levelPlace,
      onHand: stockMovements.onHandAfter,
      asOf: sql<string>`${asOf}`,
      lastMovementAt: stockMovements.createdAt,
      totalCount: page.totalCount,
    })
    .from(page)
    .innerJoin(
      stockLevels,
      inTenant(
        tdb,
        stockLevels,
        eq(stockLevels.productId, page.productId),
        eq(stockLevels.locationId, page.locationId),
        eq(stockLevels.lotId, page.lotId),
      ),
    )
    .$dynamic();
  const { rows } = await runBatch(tdb, {
    rows: withPlace(tdb, levels)
      .innerJoin(stockMovements, sql`${stockMovements}.rowid = (${lastMovementAt(tdb, asOf)})`)
      .orderBy(...levelOrder),
  });
  const items = rows.map(({ totalCount, ...level }) => level);
  if (rows.length || offsetOf(query) === 0) return paged(items, rows[0]?.totalCount ?? 0, query);
  const { total } = await runBatch(tdb, {
    total: tdb.db
      .select({ value: count() })
      .from(stockLevels)
      .innerJoin(products, levelsWithProducts(tdb))
      .where(inTenant(tdb, stockLevels, existed, ...conditions)),
  });
  return paged(items, total[0]?.value ?? 0, query);
}
