import { z } from "@hono/zod-openapi";
import { actorOf } from "../auth/principal";
import { created, envelopeOf, ok } from "../http/envelope";
import { pagedOf } from "../http/pagination";
import { IdParam } from "../http/params";
import { createRouter } from "../http/router";
import { auditActor } from "../pipeline/audit-actor";
import { defineRoute, errorResponse, jsonContent as json } from "../pipeline/route";
import { InvoiceRecord } from "../record-schemas/invoice";
import { createInvoice } from "./create-invoice";
import { createRateCard } from "./create-rate-card";
import { INVOICE_CSV_HEADER, invoiceCsv } from "./invoice-csv";
import { listCharges } from "./list-charges";
import { listInvoices } from "./list-invoices";
import { listRateCards } from "./list-rate-cards";
import { getRateCard, invoiceRecord, readInvoiceRow } from "./records";
import {
  ChargesPage,
  CreateInvoiceBody,
  CreateRateCardBody,
  InvoiceFormatQuery,
  ListChargesQuery,
  ListInvoicesQuery,
  ListRateCardsQuery,
  RateCardRecord,
} from "./schemas";
import { voidInvoice } from "./void-invoice";

// A merchant's own credential (with `billing`) reads its own rate cards, charges and invoices; only the tenant's
// make cards and invoices (docs/decisions/billing.md).
const read = { scope: "billing" } as const;
const write = { scope: "billing", merchants: false } as const;
const tags = ["Billing"];
const card = (description: string) => ({ description, ...json(envelopeOf(RateCardRecord)) });
const invoice = (description: string) => ({ description, ...json(envelopeOf(InvoiceRecord)) });

const listRateCardsRoute = defineRoute(read, {
  method: "get",
  path: "/billing/rate-cards",
  operationId: "listRateCards",
  tags,
  summary: "List rate cards, the latest effective first (filter: merchantId)",
  request: { query: ListRateCardsQuery },
  responses: { 200: { description: "A page of rate cards", ...json(envelopeOf(pagedOf(RateCardRecord))) } },
});

const getRateCardRoute = defineRoute(read, {
  method: "get",
  path: "/billing/rate-cards/{id}",
  operationId: "getRateCard",
  tags,
  summary: "Get a rate card",
  request: { params: IdParam },
  responses: { 200: card("The rate card"), 404: errorResponse("Unknown rate card") },
});

const createRateCardRoute = defineRoute(write, {
  method: "post",
  path: "/billing/rate-cards",
  operationId: "createRateCard",
  tags,
  summary: "Give a merchant a rate card from a day on",
  description:
    "Rates by activity, each with an exact unit price: storage per unit or per location per day (optionally by " +
    "location type), receiving per line and per unit, picking per order, line and unit, packing per package " +
    "(optionally by package type), returns per return and per unit, and a monthly minimum (`minimum`, `month`). " +
    "A card prices the merchant's activity from `effectiveFrom` until the next card's day; cards never change.",
  request: { body: { required: true, ...json(CreateRateCardBody) } },
  responses: {
    201: card("The new rate card"),
    404: errorResponse("Unknown merchant"),
    409: errorResponse("The merchant already has a card from this day"),
  },
});

const listChargesRoute = defineRoute(read, {
  method: "get",
  path: "/billing/charges",
  operationId: "listCharges",
  tags,
  summary: "List a merchant's charges in a range of days, each with what it was for",
  description:
    "Read from the records of what happened (receipts, picks, dispatched shipments' packages, return receipts, " +
    "the daily storage snapshots), priced by the rate card in effect on each day: asking again gives the same " +
    "charges. Activity that no rate prices is not charged.",
  request: { query: ListChargesQuery },
  responses: {
    200: { description: "A page of charges", ...json(envelopeOf(ChargesPage)) },
    404: errorResponse("Unknown merchant"),
  },
});

const createInvoiceRoute = defineRoute(write, {
  method: "post",
  path: "/billing/invoices",
  operationId: "createInvoice",
  tags,
  summary: "Invoice a merchant for a month (the same invoice again until it is voided)",
  description:
    "Lines grouped by activity, unit and price, the monthly minimum's top-up, event `invoice.created`. The " +
    "running month is billed up to now (`coveredUntil`); void the invoice and make it again to bill the rest. " +
    "201 when this request made it, 200 with the period's standing invoice.",
  request: { body: { required: true, ...json(CreateInvoiceBody) } },
  responses: {
    200: invoice("The period's standing invoice"),
    201: invoice("The new invoice"),
    404: errorResponse("Unknown merchant"),
    409: errorResponse("No rate card in effect in the period, or its cards name different currencies"),
  },
});

const listInvoicesRoute = defineRoute(read, {
  method: "get",
  path: "/billing/invoices",
  operationId: "listInvoices",
  tags,
  summary: "List invoices, newest first (filters: merchantId, period, status)",
  request: { query: ListInvoicesQuery },
  responses: { 200: { description: "A page of invoices", ...json(envelopeOf(pagedOf(InvoiceRecord))) } },
});

const getInvoiceRoute = defineRoute(read, {
  method: "get",
  path: "/billing/invoices/{id}",
  operationId: "getInvoice",
  tags,
  summary: "Get an invoice, as JSON or (Accept: text/csv, or format=csv) as CSV",
  request: { params: IdParam, query: InvoiceFormatQuery },
  responses: {
    200: {
      description:
        "The invoice: in the envelope, or with `Accept: text/csv` one CSV record per line and a total",
      headers: {
        "Content-Disposition": {
          description: "With `Accept: text/csv` only: `attachment` and the download's name.",
          schema: { type: "string" as const, example: 'attachment; filename="invoice-2026-11-<id>.csv"' },
        },
      },
      content: {
        ...json(envelopeOf(InvoiceRecord)).content,
        "text/csv": {
          schema: z.string().openapi({
            description: `RFC 4180 CSV, UTF-8: a header row (${INVOICE_CSV_HEADER}), a record per line, then one whose activity is \`total\`.`,
            example: `${INVOICE_CSV_HEADER}\r\n`,
          }),
        },
      },
    },
    404: errorResponse("Unknown invoice"),
  },
});

const voidInvoiceRoute = defineRoute(write, {
  method: "post",
  path: "/billing/invoices/{id}/void",
  operationId: "voidInvoice",
  tags,
  summary: "Void an invoice (event invoice.voided); its period may be invoiced again",
  request: { params: IdParam },
  responses: {
    200: invoice("The voided invoice"),
    404: errorResponse("Unknown invoice"),
    409: errorResponse("Already voided"),
  },
});

export const billingRoutes = createRouter()
  .openapi(listRateCardsRoute, async (c) => ok(c, await listRateCards(c.var.tenantDb, c.req.valid("query"))))
  .openapi(getRateCardRoute, async (c) => ok(c, await getRateCard(c.var.tenantDb, c.req.valid("param").id)))
  .openapi(createRateCardRoute, async (c) => {
    const record = await createRateCard(c.var.tenantDb, actorOf(c), c.req.valid("json"), auditActor(c));
    return created(c, record, `/api/v1/billing/rate-cards/${record.id}`);
  })
  .openapi(listChargesRoute, async (c) => ok(c, await listCharges(c.var.tenantDb, c.req.valid("query"))))
  .openapi(createInvoiceRoute, async (c) => {
    const made = await createInvoice(c.var.tenantDb, actorOf(c), c.req.valid("json"), auditActor(c));
    return made.created
      ? created(c, made.record, `/api/v1/billing/invoices/${made.record.id}`)
      : ok(c, made.record);
  })
  .openapi(listInvoicesRoute, async (c) => ok(c, await listInvoices(c.var.tenantDb, c.req.valid("query"))))
  .openapi(getInvoiceRoute, async (c) => {
    const record = invoiceRecord(await readInvoiceRow(c.var.tenantDb, c.req.valid("param").id));
    const { format } = c.req.valid("query");
    const csv = format === "csv" || (format === undefined && c.req.header("accept")?.includes("text/csv"));
    if (!csv) return ok(c, record);
    return c.body(invoiceCsv(record), 200, {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="invoice-${record.period}-${record.id}.csv"`,
    });
  })
  .openapi(voidInvoiceRoute, async (c) =>
    ok(c, await voidInvoice(c.var.tenantDb, c.req.valid("param").id, auditActor(c))),
  );
