import { eq, exists, type SQL, sql } from "drizzle-orm";
import type { TenantDb } from "../db/client";
import { orders } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";

/**
 * D1 has no interactive transactions, so an order change is one batch in which every statement is
 * guarded by "the order is still at the version this request read", and the LAST statement bumps that
 * version. Batches run one at a time, so a request that lost a race finds a newer version and changes
 * nothing at all; its final update's `changes = 0` tells the caller to answer 409.
 */
export const atVersion = (tdb: TenantDb, orderId: string, version: number): SQL =>
  exists(
    tdb.db
      .select({ one: sql`1` })
      .from(orders)
      .where(inTenant(tdb, orders, eq(orders.id, orderId), eq(orders.version, version))),
  );

/** The statement that moves an order to its next version (last in its batch; 0 changes: it lost a race). */
export function bumpVersion(
  tdb: TenantDb,
  orderId: string,
  version: number,
  changes: { status: string; trackingNumber?: string | null; updatedAt: string },
) {
  return tdb.db
    .update(orders)
    .set({ ...changes, version: sql`${orders.version} + 1` })
    .where(inTenant(tdb, orders, eq(orders.id, orderId), eq(orders.version, version)));
}
