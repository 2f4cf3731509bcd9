import { count, eq } from "drizzle-orm";
import type { TenantDb } from "../db/client";
import { newestFirst, readPage } from "../db/pages";
import { billingInvoices as invoices } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import { invoiceRecord } from "./records";
import type { ListInvoicesQuery } from "./schemas";

/** Invoices newest first, filtered by merchant, period and status. */
export function listInvoices(tdb: TenantDb, query: ListInvoicesQuery) {
  const where = inTenant(
    tdb,
    invoices,
    query.merchantId ? eq(invoices.merchantId, query.merchantId) : undefined,
    query.period ? eq(invoices.period, query.period) : undefined,
    query.status ? eq(invoices.status, query.status) : undefined,
  );
  return readPage(
    tdb,
    query,
    {
      rows: tdb.db.select().from(invoices).where(where),
      order: newestFirst(invoices),
      count: tdb.db.select({ value: count() }).from(invoices).where(where),
    },
    invoiceRecord,
  );
}
