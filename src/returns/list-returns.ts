import { count, eq } from "drizzle-orm";
import type { TenantDb } from "../db/client";
import { newestFirst, readPage } from "../db/pages";
import { returns } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import { readReturns } from "./records";
import type { ListReturnsQuery } from "./schemas";

/** Returns newest first, filtered by status and order, with their lines and receipts. */
export async function listReturns(tdb: TenantDb, query: ListReturnsQuery) {
  const where = inTenant(
    tdb,
    returns,
    query.status ? eq(returns.status, query.status) : undefined,
    query.orderId ? eq(returns.orderId, query.orderId) : undefined,
  );
  const page = await readPage(tdb, query, {
    rows: tdb.db.select().from(returns).where(where),
    order: newestFirst(returns),
    count: tdb.db.select({ value: count() }).from(returns).where(where),
  });
  return { ...page, items: await readReturns(tdb, page.items) };
}
