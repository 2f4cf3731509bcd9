import { type SQL, sql } from "drizzle-orm";
import type { TenantDb } from "../db/client";

/**
 * D1 has no interactive transactions, so an order change is one batch in which every statement is
 * guarded by "the order is still at the version this request read", and the LAST statement bumps that
 * version. Batches run one at a time, so a request that lost a race finds a newer version and changes
 * nothing at all; its final update's `changes = 0` tells the caller to answer 409.
 */
export const atVersion = (tdb: TenantDb, orderId: string, version: number): SQL =>
  sql`exists (select 1 from orders where tenant_id = ${tdb.tenantId} and id = ${orderId} and version = ${version})`;
