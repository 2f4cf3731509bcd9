import { eq } from "drizzle-orm";
import { type AuditActor, auditRow } from "../db/audit/writer";
import { changesOf, runBatch } from "../db/batch";
import type { TenantDb } from "../db/client";
import { billingInvoices as invoices } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import { conflict } from "../http/errors";
import { eventRow, previousStatementChanged } from "../outbox/outbox";
import { invoiceRecord, invoiceSummary, readInvoiceRow } from "./records";

/** Voids an issued invoice (event invoice.voided): the period may then be invoiced again. */
export async function voidInvoice(tdb: TenantDb, id: string, by: AuditActor) {
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
    // After the event, which exists only if this request voided it: so does the entry.
    audit: auditRow(
      tdb,
      by,
      {
        action: "invoice.voided",
        target: { type: "invoice", id },
        merchantId: row.merchantId,
        before: invoiceSummary(row),
        after: invoiceSummary(voided),
      },
      { onlyIf: previousStatementChanged },
    ),
  });
  if (changesOf(written.update) === 0) throw conflict(`Invoice ${id} was voided meanwhile`);
  return invoiceRecord(voided);
}
