import { sql } from "drizzle-orm";
import { check, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { tenantRowKey, timestamps } from "./columns";

// Billing a merchant for what the warehouse did (docs/decisions/billing.md): rate cards, the daily storage
// snapshots the scheduled job takes, and invoices. Charges themselves are not stored: they are read from the
// records of what happened (receipts, picks, shipments, returns, snapshots) whenever they are listed or invoiced.

/** One rate of a card, as stored (its price in ten-thousandths). */
export interface StoredRate {
  activity: string;
  per: string;
  locationType?: string;
  packageType?: string;
  unitPriceE4: number;
}

// A card prices a merchant's activity from its effectiveFrom day until the next card's: cards are never changed,
// a new one supersedes (one card per merchant and day).
export const billingRateCards = sqliteTable(
  "billing_rate_cards",
  {
    ...tenantRowKey(),
    merchantId: text("merchant_id").notNull(),
    currency: text("currency").notNull(),
    // A UTC day, YYYY-MM-DD.
    effectiveFrom: text("effective_from").notNull(),
    rates: text("rates", { mode: "json" }).$type<StoredRate[]>().notNull(),
    createdBy: text("created_by"),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex("billing_rate_cards_merchant_day_unique").on(t.tenantId, t.merchantId, t.effectiveFrom),
    index("billing_rate_cards_tenant_created_idx").on(t.tenantId, t.createdAt, t.id),
  ],
);

/** What a snapshot holds at locations of one type. */
export interface SnapshotLocations {
  locationType: string;
  locations: number;
  units: number;
}

// A merchant's stock at the end of one UTC day, from the ledger: taken once (the unique key), late if the job
// missed the day, never twice.
export const billingStorageSnapshots = sqliteTable(
  "billing_storage_snapshots",
  {
    ...tenantRowKey(),
    merchantId: text("merchant_id").notNull(),
    day: text("day").notNull(),
    units: integer("units").notNull(),
    byLocationType: text("by_location_type", { mode: "json" }).$type<SnapshotLocations[]>().notNull(),
    takenAt: text("taken_at").notNull(),
  },
  (t) => [uniqueIndex("billing_storage_snapshots_merchant_day_unique").on(t.tenantId, t.merchantId, t.day)],
);

// A merchant's stock level deleted with its location, warehouse or product (always empty by then), with what a
// storage snapshot prices it by: its location's type and its product's merchant, both gone with the rows. A day
// taken late reads such a level from the ledger as it stood that day, like a level that still exists.
export const deletedStockLevels = sqliteTable(
  "deleted_stock_levels",
  {
    tenantId: text("tenant_id").notNull(),
    productId: text("product_id").notNull(),
    locationId: text("location_id").notNull(),
    lotId: text("lot_id").notNull(),
    merchantId: text("merchant_id").notNull(),
    locationType: text("location_type").notNull(),
    deletedAt: text("deleted_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.productId, t.locationId, t.lotId] }),
    index("deleted_stock_levels_merchant_deleted_idx").on(t.tenantId, t.merchantId, t.deletedAt),
  ],
);

export const invoiceStatuses = ["issued", "voided"] as const;

/** One line of an invoice, as stored: amounts in ten-thousandths as decimal text (they may pass 2^53). */
export interface StoredInvoiceLine {
  activity: string;
  per: string;
  locationType?: string;
  packageType?: string;
  quantity: number;
  unitPriceE4: string;
  totalE4: string;
}

// A merchant's invoice for a calendar month: one issued invoice per period (the partial unique index makes
// concurrent requests for one period make one), any number of voided ones.
export const billingInvoices = sqliteTable(
  "billing_invoices",
  {
    ...tenantRowKey(),
    merchantId: text("merchant_id").notNull(),
    // YYYY-MM
    period: text("period").notNull(),
    status: text("status", { enum: invoiceStatuses }).notNull().default("issued"),
    currency: text("currency").notNull(),
    lines: text("lines", { mode: "json" }).$type<StoredInvoiceLine[]>().notNull(),
    totalE4: text("total_e4").notNull(),
    // The activity it bills is what happened before this instant (the period's end, or when it was made).
    coveredUntil: text("covered_until").notNull(),
    createdBy: text("created_by"),
    voidedAt: text("voided_at"),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex("billing_invoices_issued_period_unique")
      .on(t.tenantId, t.merchantId, t.period)
      .where(sql`${t.status} = 'issued'`),
    index("billing_invoices_tenant_created_idx").on(t.tenantId, t.createdAt, t.id),
    check("billing_invoices_status_check", sql`${t.status} in ('issued', 'voided')`),
  ],
);
