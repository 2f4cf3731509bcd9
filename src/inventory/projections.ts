import { and, eq, type SQL, sql } from "drizzle-orm";
import type { TenantDb } from "../db/client";
import { locations, products, stockLevels, stockMovements } from "../db/schema";

// The API's shapes of stock levels and ledger rows, defined once: lists read them, and writes read them
// back at the end of their batch so a response shows exactly what committed.

const available = sql<number>`${stockLevels.onHand} - ${stockLevels.reserved}`;

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
      onHand: stockLevels.onHand,
      reserved: stockLevels.reserved,
      available,
      updatedAt: stockLevels.updatedAt,
    })
    .from(stockLevels)
    .innerJoin(products, and(eq(products.tenantId, tdb.tenantId), eq(products.id, stockLevels.productId)))
    .innerJoin(locations, and(eq(locations.tenantId, tdb.tenantId), eq(locations.id, stockLevels.locationId)))
    .where(and(eq(stockLevels.tenantId, tdb.tenantId), ...conditions));
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
    .where(and(eq(m.tenantId, tdb.tenantId), ...conditions));
}
