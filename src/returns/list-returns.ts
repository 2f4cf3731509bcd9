import { count, desc, eq } from "drizzle-orm";
import { runBatch } from "../db/batch";
import type { TenantDb } from "../db/client";
import { returns } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import { offsetOf, paged } from "../http/pagination";
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
  const read = await runBatch(tdb, {
    rows: tdb.db
      .select()
      .from(returns)
      .where(where)
      .orderBy(desc(returns.createdAt), desc(returns.id))
      .limit(query.pageSize)
      .offset(offsetOf(query)),
    count: tdb.db.select({ value: count() }).from(returns).where(where),
  });
  return paged(await readReturns(tdb, read.rows), read.count[0]?.value ?? 0, query);
}
