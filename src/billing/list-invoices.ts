import { count, desc, eq } from "drizzle-orm";
import { runBatch } from "../db/batch";
import type { TenantDb } from "../db/client";
import { billingInvoices as invoices } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import { offsetOf, paged } from "../http/pagination";
import { invoiceRecord } from "./records";
import type { ListInvoicesQuery } from "./schemas";

/** Invoices newest first, filtered by merchant, period and status. */
export async function listInvoices(tdb: TenantDb, query: ListInvoicesQuery) {
  const where = inTenant(
    tdb,
    invoices,
    query.merchantId ? eq(invoices.merchantId, query.merchantId) : undefined,
    query.period ? eq(invoices.period, query.period) : undefined,
    query.status ? eq(invoices.status, query.status) : undefined,
  );
  const read = await runBatch(tdb, {
    rows: tdb.db
      .select()
      .from(invoices)
      .where(where)
      .orderBy(desc(invoices.createdAt), desc(invoices.id))
      .limit(query.pageSize)
      .offset(offsetOf(query)),
    count: tdb.db.select({ value: count() }).from(invoices).where(where),
  });
  return paged(read.rows.map(invoiceRecord), read.count[0]?.value ?? 0, query);
}
