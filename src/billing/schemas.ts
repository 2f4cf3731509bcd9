import { z } from "@hono/zod-openapi";
import { invoiceStatuses, locationTypes } from "../db/schema/tenant";
import { type FieldRule, withRules } from "../http/field-rules";
import { pageQuery } from "../http/pagination";
import { ExactMoney, ExactMoneyText, Money } from "../money";
import { type BilledActivity, BillingActivity, BillingUnit } from "../record-schemas/invoice";

/** The units each activity is priced by. */
export const unitsOf: Record<BilledActivity, readonly BillingUnit[]> = {
  storage: ["unit_day", "location_day"],
  receiving: ["line", "unit"],
  picking: ["order", "line", "unit"],
  packing: ["package"],
  returns: ["return", "unit"],
  minimum: ["month"],
};

/** The most rates one card holds (every activity and unit, by each location type, and package types). */
export const MAX_RATES = 100;

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const isCalendarDay = (value: string) =>
  DAY.test(value) && new Date(`${value}T00:00:00.000Z`).toISOString().slice(0, 10) === value;
const Day = (description: string, example: string) =>
  z
    .string({ error: "must be a date (YYYY-MM-DD)" })
    .refine(isCalendarDay, "must be a date (YYYY-MM-DD)")
    .openapi({ format: "date", description, example });

type RateFields = { activity: BilledActivity; per: BillingUnit; locationType?: string; packageType?: string };

/** Only storage rates take locationType, only packing rates packageType. */
const onlyFor = { locationType: "storage", packageType: "packing" } as const;

/**
 * A rate's unit and qualifiers by its activity. The document states it as the combinations none of which a rate
 * may match (a `not` of an `anyOf`), which leaves the generated types' fields as they are.
 */
const rateByActivity: FieldRule<RateFields> = {
  check: (rate, ctx) => {
    if (!unitsOf[rate.activity].includes(rate.per)) {
      ctx.addIssue({
        code: "custom",
        path: ["per"],
        message: `${rate.activity} is priced per ${unitsOf[rate.activity].join(" or ")}`,
      });
    }
    for (const [field, activity] of Object.entries(onlyFor) as [keyof typeof onlyFor, string][]) {
      if (rate[field] !== undefined && rate.activity !== activity) {
        ctx.addIssue({ code: "custom", path: [field], message: `only for ${activity} rates` });
      }
    }
  },
  states: {
    not: {
      anyOf: [
        ...(Object.keys(unitsOf) as BilledActivity[]).map((activity) => ({
          title: `${activity} priced per another unit than ${unitsOf[activity].join(" or ")}`,
          required: ["activity", "per"],
          properties: { activity: { const: activity }, per: { not: { enum: unitsOf[activity] } } },
        })),
        ...Object.entries(onlyFor).map(([field, activity]) => ({
          title: `${field} on a rate other than ${activity}`,
          required: ["activity", field],
          properties: { activity: { not: { const: activity } } },
        })),
      ],
    },
  },
};

const Rate = withRules(
  z.strictObject({
    activity: BillingActivity,
    per: BillingUnit,
    locationType: z
      .enum(locationTypes, { error: `must be one of ${locationTypes.join(", ")}` })
      .optional()
      .openapi({
        description: "Storage only: the rate for stock at locations of this type (else every type).",
      }),
    packageType: z
      .string({ error: "must be a string" })
      .trim()
      .min(1, "must not be empty")
      .max(64, "must be at most 64 characters")
      .optional()
      .openapi({
        description: "Packing only: the rate for packages of this type (else every other type).",
        example: "box",
      }),
    unitPrice: Money,
  }),
  rateByActivity,
).openapi("BillingRate");
export type Rate = z.infer<typeof Rate>;

/** What makes two rates of a card the same rate. */
export const rateKey = (rate: {
  activity: string;
  per: string;
  locationType?: string;
  packageType?: string;
}) => `${rate.activity}|${rate.per}|${rate.locationType ?? ""}|${rate.packageType ?? ""}`;

export const CreateRateCardBody = z
  .strictObject({
    merchantId: z.uuid("must be a UUID (a merchant)"),
    currency: z
      .string({ error: "must be an ISO 4217 code (3 capital letters)" })
      .regex(/^[A-Z]{3}$/, "must be an ISO 4217 code (3 capital letters)")
      .openapi({ example: "EUR" }),
    effectiveFrom: Day(
      "The first UTC day the card prices; it prices until the next card's day.",
      "2026-11-01",
    ),
    rates: z
      .array(Rate, { error: "must be an array of rates" })
      .min(1, "must have at least one rate")
      .max(MAX_RATES, `must have at most ${MAX_RATES} rates`)
      .superRefine((rates, ctx) => {
        const seen = new Set<string>();
        rates.forEach((rate, i) => {
          const key = rateKey(rate);
          if (seen.has(key)) ctx.addIssue({ code: "custom", path: [i], message: "the same rate twice" });
          seen.add(key);
        });
      }),
  })
  .openapi("RateCardRequest");
export type CreateRateCardBody = z.infer<typeof CreateRateCardBody>;

const RateView = z
  .object({
    activity: BillingActivity,
    per: BillingUnit,
    locationType: z.string().nullable().openapi({ example: "bin" }),
    packageType: z.string().nullable(),
    unitPrice: z.number(),
  })
  .openapi("BillingRateView");

export const RateCardRecord = z
  .object({
    id: z.uuid(),
    merchantId: z.uuid(),
    currency: z.string(),
    effectiveFrom: z.string().openapi({ format: "date" }),
    rates: z.array(RateView),
    createdBy: z.string().nullable(),
    createdAt: z.string().openapi({ format: "date-time" }),
  })
  .openapi("RateCard");

const MerchantFilter = z.uuid("must be a UUID").optional().openapi({
  description: "The merchant; a credential acting for one merchant may name only its own (its default).",
});

export const ListRateCardsQuery = pageQuery.extend({ merchantId: MerchantFilter });
export type ListRateCardsQuery = z.infer<typeof ListRateCardsQuery>;

/** The longest range of charges one request lists, counting both end days. */
export const MAX_CHARGE_DAYS = 92;

export const ListChargesQuery = pageQuery
  .extend({
    merchantId: MerchantFilter.openapi({
      description:
        "Required for a credential of the whole tenant; a merchant's own credential may leave it out.",
    }),
    from: Day("First UTC day, inclusive.", "2026-11-01").openapi({ param: { name: "from", in: "query" } }),
    to: Day("Last UTC day, inclusive.", "2026-11-30").openapi({ param: { name: "to", in: "query" } }),
  })
  .superRefine((query, ctx) => {
    const days = (Date.parse(query.to) - Date.parse(query.from)) / 86_400_000 + 1;
    if (days < 1) ctx.addIssue({ code: "custom", path: ["to"], message: "must not be before from" });
    if (days > MAX_CHARGE_DAYS) {
      ctx.addIssue({
        code: "custom",
        path: ["to"],
        message: `the range must be at most ${MAX_CHARGE_DAYS} days`,
      });
    }
  });
export type ListChargesQuery = z.infer<typeof ListChargesQuery>;

export const chargeReferenceTypes = ["receipt", "order", "shipment", "return", "snapshot"] as const;

export const ChargeRecord = z
  .object({
    activity: BillingActivity,
    per: BillingUnit,
    locationType: z.string().nullable().openapi({ description: "Storage: the location type of the stock." }),
    packageType: z.string().nullable().openapi({ description: "Packing: the packages' type." }),
    date: z.string().openapi({ format: "date", description: "The UTC day it happened: its rate card's." }),
    quantity: z.number().int(),
    unitPrice: z.number(),
    amount: ExactMoney,
    amountExact: ExactMoneyText,
    currency: z.string(),
    rateCardId: z.uuid(),
    reference: z
      .object({
        type: z.enum(chargeReferenceTypes),
        id: z.uuid(),
        at: z.string().openapi({ format: "date-time", description: "When it happened (a receipt's time)." }),
      })
      .openapi({
        description:
          "What it was for: a purchase order's receipt (`receipt`, the order's id and the receipt's time), a sales " +
          "order's picks (`order`), a dispatched shipment's packages (`shipment`), a return's receipt (`return`) " +
          "or a storage snapshot (`snapshot`).",
      }),
  })
  .openapi("BillingCharge");
export type ChargeRecord = z.infer<typeof ChargeRecord>;

export const ChargesPage = z
  .object({
    merchantId: z.uuid(),
    from: z.string().openapi({ format: "date" }),
    to: z.string().openapi({ format: "date" }),
    items: z.array(ChargeRecord),
    totalCount: z.number().int(),
    page: z.number().int(),
    pageSize: z.number().int(),
    totalPages: z.number().int(),
  })
  .openapi("BillingChargesPage");

const PERIOD = /^(\d{4})-(0[1-9]|1[0-2])$/;

export const CreateInvoiceBody = z
  .strictObject({
    merchantId: z.uuid("must be a UUID (a merchant)"),
    period: z
      .string({ error: "must be a month (YYYY-MM)" })
      .regex(PERIOD, "must be a month (YYYY-MM)")
      .openapi({ example: "2026-11", description: "A calendar month (UTC); not one still to come." }),
  })
  .openapi("InvoiceRequest");
export type CreateInvoiceBody = z.infer<typeof CreateInvoiceBody>;

export const ListInvoicesQuery = pageQuery.extend({
  merchantId: MerchantFilter,
  period: z.string().regex(PERIOD, "must be a month (YYYY-MM)").optional(),
  status: z.enum(invoiceStatuses, { error: "must be issued or voided" }).optional(),
});
export type ListInvoicesQuery = z.infer<typeof ListInvoicesQuery>;

export const InvoiceFormatQuery = z.object({
  format: z
    .enum(["json", "csv"], { error: "must be json or csv" })
    .optional()
    .openapi({
      param: { name: "format", in: "query" },
      description:
        "`csv` as `Accept: text/csv` does (the reports' parameter); default: as Accept says, else JSON.",
    }),
});
