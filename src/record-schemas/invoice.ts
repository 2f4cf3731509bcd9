import { z } from "@hono/zod-openapi";
import { invoiceStatuses } from "../db/schema/tenant";
import { ExactMoney, ExactMoneyText } from "../money";

// An invoice as its own operations and its `invoice.*` events show it (src/billing, src/events), and the
// activities and units it bills by (a rate card's too).

/** What a rate prices, and per what (docs/decisions/billing.md). */
export const billedActivities = ["storage", "receiving", "picking", "packing", "returns", "minimum"] as const;

/** In the order an invoice lists them: per order or return before per line before per unit. */
export const billingUnits = [
  "unit_day",
  "location_day",
  "order",
  "return",
  "package",
  "line",
  "unit",
  "month",
] as const;

export type BilledActivity = (typeof billedActivities)[number];
export type BillingUnit = (typeof billingUnits)[number];

export const BillingActivity = z
  .enum(billedActivities, { error: `must be one of ${billedActivities.join(", ")}` })
  .openapi("BillingActivity");

export const BillingUnit = z
  .enum(billingUnits, { error: `must be one of ${billingUnits.join(", ")}` })
  .openapi("BillingUnit");

const InvoiceLine = z
  .object({
    activity: BillingActivity,
    per: BillingUnit,
    locationType: z.string().nullable(),
    packageType: z.string().nullable(),
    quantity: z.number().int(),
    unitPrice: ExactMoney,
    unitPriceExact: ExactMoneyText,
    total: ExactMoney,
    totalExact: ExactMoneyText,
  })
  .openapi("InvoiceLine");

export const InvoiceRecord = z
  .object({
    id: z.uuid(),
    merchantId: z.uuid(),
    period: z.string().openapi({ example: "2026-11" }),
    status: z.enum(invoiceStatuses),
    currency: z.string(),
    lines: z.array(InvoiceLine).openapi({
      description:
        "One line per activity, unit and price (a card that changes mid-month gives two); the monthly minimum's " +
        "top-up (`minimum`, `month`) when the rest comes to less. total = quantity x unitPrice, exactly.",
    }),
    total: ExactMoney,
    totalExact: ExactMoneyText,
    coveredUntil: z.string().openapi({
      format: "date-time",
      description: "It bills what happened before this instant: the period's end, or when it was made.",
    }),
    createdBy: z.string().nullable(),
    createdAt: z.string().openapi({ format: "date-time" }),
    voidedAt: z.string().nullable().openapi({ format: "date-time" }),
  })
  .openapi("Invoice");
