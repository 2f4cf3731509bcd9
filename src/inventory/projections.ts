import { eq, type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { TenantDb } from "../db/client";
import { locations, lots, products, stockLevels, stockMovements } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";

// The API's shapes of stock levels and ledger rows, defined once: lists read them, and writes read them
// back at the end of their batch so a response shows exactly what committed.

/** A stored lot key as the API shows it: null for stock without a lot. */
export const lotIdOf = (column: SQLiteColumn) => sql<string | null>`nullif(${column}, '')`;

/** The join to a level's or movement's lot ('' joins none). */
export const withLot = (tdb: TenantDb, column: SQLiteColumn) => inTenant(tdb, lots, eq(lots.id, column));

/** What a level can still give: on hand minus reserved. */
export const available = sql<number>`${stockLevels.onHand} - ${stockLevels.reserved}`;

/** Stock levels with their product (the join the level lists filter and count on). */
export const levelsWithProducts = (tdb: TenantDb) =>
  inTenant(tdb, products, eq(products.id, stockLevels.productId));

/** Stock levels (as the API shows them) with their product and location, filtered by `conditions`. */
export function selectStockLevels(tdb: TenantDb, ...conditions: (SQL | undefined)[]) {
  return tdb.db
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
      onHand: stockLevels.onHand,
      reserved: stockLevels.reserved,
      available,
      updatedAt: stockLevels.updatedAt,
    })
    .from(stockLevels)
    .innerJoin(products, levelsWithProducts(tdb))
    .innerJoin(locations, inTenant(tdb, locations, eq(locations.id, stockLevels.locationId)))
    .leftJoin(lots, withLot(tdb, stockLevels.lotId))
    .where(inTenant(tdb, stockLevels, ...conditions));
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
