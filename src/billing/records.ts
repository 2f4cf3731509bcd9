import { eq } from "drizzle-orm";
import type { TenantDb } from "../db/client";
import { assertMerchantNamed } from "../db/merchant-named";
import { billingInvoices, billingRateCards } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import { notFound } from "../http/errors";
import { validationError } from "../http/validation";
import { exactMoneyWithText, fromE4 } from "../money";
import type { BilledActivity, BillingUnit } from "../record-schemas/invoice";

export type RateCardRow = typeof billingRateCards.$inferSelect;
export type InvoiceRow = typeof billingInvoices.$inferSelect;

export function rateCardRecord({ tenantId: _t, updatedAt: _u, ...row }: RateCardRow) {
  return {
    ...row,
    rates: row.rates.map((rate) => ({
      activity: rate.activity as BilledActivity,
      per: rate.per as BillingUnit,
      locationType: rate.locationType ?? null,
      packageType: rate.packageType ?? null,
      unitPrice: fromE4(rate.unitPriceE4),
    })),
  };
}

export function invoiceRecord({ tenantId: _t, updatedAt: _u, totalE4, lines, ...row }: InvoiceRow) {
  return {
    ...row,
    lines: lines.map(({ unitPriceE4, totalE4: lineE4, ...line }) => ({
      activity: line.activity as BilledActivity,
      per: line.per as BillingUnit,
      locationType: line.locationType ?? null,
      packageType: line.packageType ?? null,
      quantity: line.quantity,
      ...exactMoneyWithText("unitPrice", BigInt(unitPriceE4)),
      ...exactMoneyWithText("total", BigInt(lineE4)),
    })),
    ...exactMoneyWithText("total", BigInt(totalE4)),
  };
}

/** An invoice as its audit entries record it: the record without its lines (the invoice itself keeps them). */
export function invoiceSummary(row: InvoiceRow) {
  const { lines: _lines, ...summary } = invoiceRecord(row);
  return summary;
}

export async function getRateCard(tdb: TenantDb, id: string) {
  const [row] = await tdb.db
    .select()
    .from(billingRateCards)
    .where(inTenant(tdb, billingRateCards, eq(billingRateCards.id, id)))
    .limit(1);
  if (!row) throw notFound("Rate card");
  return rateCardRecord(row);
}

export async function readInvoiceRow(tdb: TenantDb, id: string) {
  const [row] = await tdb.db
    .select()
    .from(billingInvoices)
    .where(inTenant(tdb, billingInvoices, eq(billingInvoices.id, id)))
    .limit(1);
  if (!row) throw notFound("Invoice");
  return row;
}

/**
 * The merchant a billing request is about: the one it names (404 unless the caller sees it), or a merchant
 * credential's own when it names none; a credential of the whole tenant must name one.
 */
export async function billedMerchant(tdb: TenantDb, named: string | undefined): Promise<string> {
  const merchantId = named ?? tdb.merchantId;
  if (merchantId === undefined) {
    throw validationError(["merchantId: required (the merchant billed)"]);
  }
  await assertMerchantNamed(tdb, merchantId);
  return merchantId;
}
