import { eq } from "drizzle-orm";
import { changesOf, runBatch } from "../db/batch";
import type { TenantDb } from "../db/client";
import { billingInvoices as invoices } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import { conflict } from "../http/errors";
import { eventRow, previousStatementChanged } from "../outbox/outbox";
import { invoiceRecord, readInvoiceRow } from "./records";

/** Voids an issued invoice (event invoice.voided): the period may then be invoiced again. */
export async function voidInvoice(tdb: TenantDb, id: string) {
  const row = await readInvoiceRow(tdb, id);
  if (row.status === "voided") throw conflict(`Invoice ${id} is already voided`);
  const now = new Date().toISOString();
  const voided = { ...row, status: "voided" as const, voidedAt: now, updatedAt: now };
  const written = await runBatch(tdb, {
    update: tdb.db
      .update(invoices)
      .set({ status: "voided", voidedAt: now, updatedAt: now })
      .where(inTenant(tdb, invoices, eq(invoices.id, id), eq(invoices.status, "issued"))),
    event: eventRow(tdb, "invoice.voided", invoiceRecord(voided), now, { onlyIf: previousStatementChanged }),
  });
  if (changesOf(written.update) === 0) throw conflict(`Invoice ${id} was voided meanwhile`);
  return invoiceRecord(voided);
}
