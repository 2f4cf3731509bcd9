import { asc, count, eq, exists, type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import type { TenantDb } from "../db/client";
import { readPage } from "../db/pages";
import { locations, lots, products, stockLevels, stockMovements } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import { offsetOf, type PageQuery } from "../http/pagination";
import { validationError } from "../http/validation";
import { levelsWithProducts, lotIdOf, withLot } from "./projections";

const m = alias(stockMovements, "as_of_movement");

/**
 * The ledger row that was a level's last at `asOf` (inclusive): one probe of the (tenant, product,
 * location, lot, created_at) index per level, so a page costs its own levels whatever the ledger's length.
 * Per level, created_at is strictly increasing in commit order (ledgerRow), so "last by created_at" is
 * "last committed", and its on_hand_after is the sum of the ledger up to that instant.
 */
export const lastMovementAt = (tdb: TenantDb, asOf: string) =>
  tdb.db
    .select({ rowid: sql`${m}.rowid` })
    .from(m)
    .where(
      inTenant(
        tdb,
        m,
        eq(m.productId, stockLevels.productId),
        eq(m.locationId, stockLevels.locationId),
        eq(m.lotId, stockLevels.lotId),
        sql`${m.createdAt} <= ${asOf}`,
      ),
    )
    .orderBy(sql`${m.createdAt} desc`)
    .limit(1);

/** `asOf` as stored timestamps compare; in the future it is 400 (the ledger cannot know it yet). */
export function asOfInstant(asOf: string, now = new Date()): string {
  const at = Date.parse(asOf);
  if (at > now.getTime()) throw validationError(["asOf: must not be in the future"]);
  return new Date(at).toISOString();
}

/** `GET /inventory/stock?asOf=`: each level's (lot's, for tracked products) onHand at that instant, the usual filters and order. */
export function listStockAsOf(
  tdb: TenantDb,
  conditions: (SQL | undefined)[],
  query: PageQuery,
  asOf: string,
) {
  const last = lastMovementAt(tdb, asOf);
  const existed = exists(last);
  return readPage(tdb, query, {
    rows: tdb.db
      .select({
        productId: stockLevels.productId,
        sku: products.sku,
        productName: products.name,
        locationId: stockLevels.locationId,
        locationCode: locations.code,
        warehouseId: stockLevels.warehouseId,
        lotId: lotIdOf(stockLevels.lotId),
        lotNumber: lots.number,
        expiresAt: lots.expiresAt,
        onHand: stockMovements.onHandAfter,
        asOf: sql<string>`${asOf}`,
        lastMovementAt: stockMovements.createdAt,
      })
      .from(stockLevels)
      .innerJoin(products, levelsWithProducts(tdb))
      .innerJoin(locations, inTenant(tdb, locations, eq(locations.id, stockLevels.locationId)))
      .leftJoin(lots, withLot(tdb, stockLevels.lotId))
      .innerJoin(stockMovements, sql`${stockMovements}.rowid = (${last})`)
      .where(inTenant(tdb, stockLevels, ...conditions))
      .orderBy(
        asc(products.sku),
        asc(locations.code),
        sql`${lots.expiresAt} is null`,
        asc(lots.expiresAt),
        asc(lots.number),
      )
      .limit(query.pageSize)
      .offset(offsetOf(query)),
    count: tdb.db
      .select({ value: count() })
      .from(stockLevels)
      .innerJoin(products, levelsWithProducts(tdb))
      .where(inTenant(tdb, stockLevels, existed, ...conditions)),
  });
}
