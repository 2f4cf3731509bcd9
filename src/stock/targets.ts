import { eq } from "drizzle-orm";
import { runBatch } from "../db/batch";
import type { TenantDb } from "../db/client";
import { locations, products } from "../db/schema/tenant";
import { inTenant, inTenantAmong } from "../db/tenant-scope";
import { AppError, assertFound, missingAmong } from "../http/errors";
import { validationError } from "../http/validation";
import { expiredHoldsOf, toHold } from "./hold-projection";

/** The tenant's locations among `ids`, with what a stock write checks (active, sellable, warehouse). */
export function targetLocations(tdb: TenantDb, ids: readonly string[]) {
  return tdb.db
    .select({
      id: locations.id,
      code: locations.code,
      warehouseId: locations.warehouseId,
      active: locations.active,
      sellable: locations.sellable,
    })
    .from(locations)
    .where(inTenantAmong(tdb, locations, [...new Set(ids)]));
}

/**
 * The product and locations a stock write names, each checked to belong to the tenant (404 names which),
 * and the product's expired holds, which a removal releases first (they must not block it).
 */
export async function loadStockTargets(
  tdb: TenantDb,
  productId: string,
  locationIds: readonly string[],
  now: string,
) {
  const read = await runBatch(tdb, {
    expiredHolds: expiredHoldsOf(tdb, [productId], now),
    product: tdb.db
      .select({
        id: products.id,
        sku: products.sku,
        reorderPoint: products.reorderPoint,
        tracking: products.tracking,
        type: products.type,
      })
      .from(products)
      .where(inTenant(tdb, products, eq(products.id, productId)))
      .limit(1),
    locations: targetLocations(tdb, locationIds),
  });
  const [product] = read.product;
  const found = read.locations;
  assertFound([
    ...missingAmong("productId", "product", [productId], read.product),
    ...missingAmong("locationId", "location", locationIds, found),
  ]);
  if (product?.type === "kit") throw validationError([kitHoldsNoStock(product.sku)]);
  const byId = new Map(found.map((l) => [l.id, l]));
  return {
    product: product as NonNullable<typeof product>,
    location: (id: string) => byId.get(id) as (typeof found)[number],
    expiredHolds: read.expiredHolds.map(toHold),
  };
}

/** Why a stock write naming a kit is a 400: a kit's stock is its components'. */
export const kitHoldsNoStock = (sku: string) =>
  `productId: ${sku} is a kit: it never holds stock (adjust or receive its components)`;

/** Stock is never put into a deactivated location. */
export function assertReceivable(location: { id: string; code: string; active: boolean }) {
  if (!location.active) {
    throw new AppError("CONFLICT", `Location ${location.code} is inactive and cannot receive stock`);
  }
}
