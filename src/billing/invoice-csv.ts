import { csvRecord } from "../http/csv-record";
import type { invoiceRecord } from "./records";

const HEADER = [
  "invoiceId",
  "merchantId",
  "period",
  "currency",
  "activity",
  "per",
  "locationType",
  "packageType",
  "quantity",
  "unitPrice",
  "total",
];
export const INVOICE_CSV_HEADER = HEADER.join(",");

/** An invoice as CSV (RFC 4180): one record a line, then a `total` record with the invoice's total. */
export function invoiceCsv(invoice: ReturnType<typeof invoiceRecord>): string {
  const head = [invoice.id, invoice.merchantId, invoice.period, invoice.currency];
  return [
    csvRecord(HEADER),
    ...invoice.lines.map((l) =>
      csvRecord([
        ...head,
        l.activity,
        l.per,
        l.locationType,
        l.packageType,
        l.quantity,
        l.unitPrice,
        l.total,
      ]),
    ),
    csvRecord([...head, "total", null, null, null, null, null, invoice.total]),
  ].join("");
}
