import { and, eq, inArray } from "drizzle-orm";
import type { TenantDb } from "../db/client";
import { locations, products } from "../db/schema";
import { AppError } from "../http/errors";

/** The product and locations a stock write names, each checked to belong to the tenant (404 names which). */
export async function loadTargets(tdb: TenantDb, productId: string, locationIds: readonly string[]) {
  const [[product], found] = await tdb.db.batch([
    tdb.db
      .select({ id: products.id, reorderPoint: products.reorderPoint })
      .from(products)
      .where(and(eq(products.tenantId, tdb.tenantId), eq(products.id, productId)))
      .limit(1),
    tdb.db
      .select({
        id: locations.id,
        code: locations.code,
        warehouseId: locations.warehouseId,
        active: locations.active,
      })
      .from(locations)
      .where(and(eq(locations.tenantId, tdb.tenantId), inArray(locations.id, [...locationIds]))),
  ]);
  const missing = [
    ...(product ? [] : [`productId: product ${productId} not found`]),
    ...locationIds
      .filter((id) => !found.some((l) => l.id === id))
      .map((id) => `locationId: location ${id} not found`),
  ];
  if (missing.length > 0) {
    throw new AppError("NOT_FOUND", missing.length === 1 ? (missing[0] as string) : "Not found", {
      errors: missing,
    });
  }
  const byId = new Map(found.map((l) => [l.id, l]));
  return { location: (id: string) => byId.get(id) as (typeof found)[number] };
}

/** Stock is never put into a deactivated location. */
export function assertReceivable(location: { id: string; code: string; active: boolean }) {
  if (!location.active) {
    throw new AppError("CONFLICT", `Location ${location.code} is inactive and cannot receive stock`);
  }
}
