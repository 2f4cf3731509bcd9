import { asc, eq, type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn, SQLiteSelect } from "drizzle-orm/sqlite-core";
import type { TenantDb } from "../db/client";
import { locations, lots, products, stockLevels, stockMovements } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import { sellableUnits } from "./sellable";

// The API's shapes of stock levels and ledger rows, defined once: lists read them, and writes read them
// back at the end of their batch so a response shows exactly what committed.

/** A stored lot key as the API shows it: null for stock without a lot. */
export const lotIdOf = (column: SQLiteColumn) => sql<string | null>`nullif(${column}, '')`;

/** The join to a level's or movement's lot ('' joins none). */
export const withLot = (tdb: TenantDb, column: SQLiteColumn) => inTenant(tdb, lots, eq(lots.id, column));

/** What a level can still give: on hand minus reserved, nothing at a non-sellable location. */
export const available = sql<number>`${sellableUnits(stockLevels)}`;

/** Stock levels with their product (the join the level lists filter and count on). */
export const levelsWithProducts = (tdb: TenantDb) =>
  inTenant(tdb, products, eq(products.id, stockLevels.productId));

/** Where a level is and what it holds (product, location, lot), as the API shows it: the columns `withPlace` joins. */
export const levelPlace = {
  productId: stockLevels.productId,
  sku: products.sku,
  productName: products.name,
  locationId: stockLevels.locationId,
  locationCode: locations.code,
  warehouseId: stockLevels.warehouseId,
  lotId: lotIdOf(stockLevels.lotId),
  lotNumber: lots.number,
  expiresAt: lots.expiresAt,
};

/** The order of level lists: by SKU, location code, then lot expiry (lots without one last) and number. */
export const levelOrder = [
  asc(products.sku),
  asc(locations.code),
  sql`${lots.expiresAt} is null`,
  asc(lots.expiresAt),
  asc(lots.number),
];

/** A select of stock levels joined with their product, location and lot: the joins of every level list. */
export const withPlace = <S extends SQLiteSelect>(tdb: TenantDb, select: S) =>
  select
    .innerJoin(products, levelsWithProducts(tdb))
    .innerJoin(locations, inTenant(tdb, locations, eq(locations.id, stockLevels.locationId)))
    .leftJoin(lots, withLot(tdb, stockLevels.lotId));

/** Stock levels as the API shows them, filtered by `conditions`. */
export function selectStockLevels(tdb: TenantDb, ...conditions: (SQL | undefined)[]) {
  const levels = tdb.db
    .select({
      ...levelPlace,
      onHand: stockLevels.onHand,
      reserved: stockLevels.reserved,
      available,
      sellable: locations.sellable,
      updatedAt: stockLevels.updatedAt,
    })
    .from(stockLevels)
    .$dynamic();
  return withPlace(tdb, levels).where(inTenant(tdb, stockLevels, ...conditions));
}

/** Ledger rows as the API shows them, filtered by `conditions`. */
export function selectMovements(tdb: TenantDb, ...conditions: (SQL | undefined)[]) {
  const m = stockMovements;
  return tdb.db
    .select({
      id: m.id,
      productId: m.productId,
      locationId: m.locationId,
      warehouseId: m.warehouseId,
      lotId: lotIdOf(m.lotId),
      lotNumber: lots.number,
      serialNumbers: m.serialNumbers,
      delta: m.delta,
      onHandAfter: m.onHandAfter,
      reason: m.reason,
      referenceType: m.referenceType,
      referenceId: m.referenceId,
      notes: m.notes,
      actorType: m.actorType,
      actorId: m.actorId,
      requestId: m.requestId,
      createdAt: m.createdAt,
    })
    .from(m)
    .leftJoin(lots, withLot(tdb, m.lotId))
    .where(inTenant(tdb, m, ...conditions));
}
