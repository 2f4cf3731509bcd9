import { and, eq } from "drizzle-orm";
import { uuidv7 } from "uuidv7";
import type { Actor } from "../auth/principal";
import { type AuditActor, auditRow } from "../db/audit/writer";
import { runBatch } from "../db/batch";
import type { TenantDb } from "../db/client";
import { billingInvoices as invoices, type StoredInvoiceLine } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import { conflict } from "../http/errors";
import { validationError } from "../http/validation";
import { eventRow, previousStatementChanged } from "../outbox/outbox";
import { billedActivities, billingUnits } from "../record-schemas/invoice";
import { readActivity } from "./activity";
import { type Charge, cardOn, priceActivity } from "./pricing";
import { billedMerchant, type InvoiceRow, invoiceRecord, invoiceSummary } from "./records";
import type { CreateInvoiceBody } from "./schemas";

const issuedFor = (tdb: TenantDb, merchantId: string, period: string) =>
  tdb.db
    .select()
    .from(invoices)
    .where(
      inTenant(
        tdb,
        invoices,
        and(eq(invoices.merchantId, merchantId), eq(invoices.period, period), eq(invoices.status, "issued")),
      ),
    )
    .limit(1);

/** The first instant of `period` (YYYY-MM) and of the month after it. */
function periodBounds(period: string) {
  const [year, month] = period.split("-").map(Number) as [number, number];
  return {
    start: new Date(Date.UTC(year, month - 1, 1)).toISOString(),
    end: new Date(Date.UTC(year, month, 1)).toISOString(),
  };
}

const lineOrder = (line: StoredInvoiceLine) => [
  billedActivities.indexOf(line.activity as (typeof billedActivities)[number]),
  billingUnits.indexOf(line.per as (typeof billingUnits)[number]),
];

/** Charges grouped by activity, unit, type and price: quantity x unit price each, exactly. */
function linesOf(charges: readonly Charge[]): StoredInvoiceLine[] {
  const lines = new Map<string, { line: Omit<StoredInvoiceLine, "totalE4">; quantity: number }>();
  for (const c of charges) {
    const key = JSON.stringify([c.activity, c.per, c.locationType, c.packageType, c.unitPriceE4]);
    const line = lines.get(key)?.line ?? {
      activity: c.activity,
      per: c.per,
      ...(c.locationType === undefined ? {} : { locationType: c.locationType }),
      ...(c.packageType === undefined ? {} : { packageType: c.packageType }),
      quantity: 0,
      unitPriceE4: String(c.unitPriceE4),
    };
    lines.set(key, { line, quantity: (lines.get(key)?.quantity ?? 0) + c.quantity });
  }
  return [...lines.values()]
    .map(({ line, quantity }) => ({
      ...line,
      quantity,
      totalE4: String(BigInt(quantity) * BigInt(line.unitPriceE4)),
    }))
    .sort((x, y) => {
      const [a, b] = [lineOrder(x), lineOrder(y)];
      return (
        (a[0] ?? 0) - (b[0] ?? 0) ||
        (a[1] ?? 0) - (b[1] ?? 0) ||
        (x.locationType ?? x.packageType ?? "").localeCompare(y.locationType ?? y.packageType ?? "") ||
        Number(BigInt(x.unitPriceE4) - BigInt(y.unitPriceE4))
      );
    });
}

/**
 * The period's invoice of a merchant: the issued one if there is one, else a new one billing the period's
 * activity (to its end, or to now for the running month) by the cards in effect each day, plus the monthly
 * minimum's top-up. Concurrent requests for one period make one invoice: the insert is guarded by the unique
 * index on issued invoices, and each request answers the one that stands. `created` says whether it was this one.
 */
export async function createInvoice(tdb: TenantDb, actor: Actor, body: CreateInvoiceBody, by: AuditActor) {
  const merchantId = await billedMerchant(tdb, body.merchantId);
  const { start, end } = periodBounds(body.period);
  const nowMs = Date.now();
  const now = new Date(nowMs).toISOString();
  if (start > now) throw validationError(["period: must not be a month still to come"]);
  const [standing] = await issuedFor(tdb, merchantId, body.period);
  if (standing) return { record: invoiceRecord(standing), created: false };

  const coveredUntil = new Date(Math.min(Date.parse(end), nowMs)).toISOString();
  const lastDay = new Date(Date.parse(coveredUntil) - 1).toISOString().slice(0, 10);
  const { activity, cards } = await readActivity(tdb, merchantId, {
    from: start,
    to: coveredUntil,
    firstDay: start.slice(0, 10),
    lastDay: new Date(Date.parse(end) - 1).toISOString().slice(0, 10),
  });
  const charges = priceActivity(activity, cards);
  const minimumCard = cardOn(cards, lastDay);
  const currencies = new Set([
    ...charges.map((c) => c.currency),
    ...(minimumCard ? [minimumCard.currency] : []),
  ]);
  if (currencies.size === 0) {
    throw conflict(`No rate card of merchant ${merchantId} is in effect in ${body.period}`);
  }
  if (currencies.size > 1) {
    throw conflict(
      `The rate cards in effect in ${body.period} name different currencies: ${[...currencies].join(", ")}`,
    );
  }
  const lines = linesOf(charges);
  const subtotal = lines.reduce((sum, line) => sum + BigInt(line.totalE4), 0n);
  const minimum = minimumCard?.rates.find((r) => r.activity === "minimum");
  if (minimum && subtotal < BigInt(minimum.unitPriceE4)) {
    const topUp = String(BigInt(minimum.unitPriceE4) - subtotal);
    lines.push({ activity: "minimum", per: "month", quantity: 1, unitPriceE4: topUp, totalE4: topUp });
  }
  const row: InvoiceRow = {
    id: uuidv7(),
    tenantId: tdb.tenantId,
    merchantId,
    period: body.period,
    status: "issued",
    currency: [...currencies][0] as string,
    lines,
    totalE4: String(lines.reduce((sum, line) => sum + BigInt(line.totalE4), 0n)),
    coveredUntil,
    createdBy: actor.actorId,
    voidedAt: null,
    createdAt: now,
    updatedAt: now,
  };
  const written = await runBatch(tdb, {
    insert: tdb.db.insert(invoices).values(row).onConflictDoNothing(),
    event: eventRow(tdb, "invoice.created", invoiceRecord(row), now, { onlyIf: previousStatementChanged }),
    // After the event, which exists only if the invoice was inserted: so does the entry.
    audit: auditRow(
      tdb,
      by,
      {
        action: "invoice.created",
        target: { type: "invoice", id: row.id },
        merchantId,
        after: invoiceSummary(row),
      },
      { onlyIf: previousStatementChanged },
    ),
    issued: issuedFor(tdb, merchantId, body.period),
  });
  const [issued] = written.issued;
  if (!issued) throw conflict(`The ${body.period} invoice changed meanwhile; retry`);
  return { record: invoiceRecord(issued), created: issued.id === row.id };
}
