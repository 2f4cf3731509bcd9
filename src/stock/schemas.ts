import { z } from "@hono/zod-openapi";
import { holdStatuses } from "../db/schema/tenant";
import { LevelInPacks } from "./packs";

// The API shapes of stock that several URL modules show or accept: lot and serial fields, a stock level,
// a ledger row and a hold.

export const LotNumber = z
  .string()
  .trim()
  .min(1, "must not be empty")
  .max(64, "must be at most 64 characters")
  .openapi({ example: "L2026-11-A" });

/** A calendar date (YYYY-MM-DD): a lot is expired from its expiry date on. */
export const LotDate = z.iso.date("must be a date (YYYY-MM-DD)");

export const SerialNumber = z
  .string()
  .trim()
  .min(1, "must not be empty")
  .max(100, "must be at most 100 characters");

/** Serials one line of a request names. */
export const MAX_SERIALS_PER_LINE = 1000;
/**
 * Serials one request names over all its lines: they travel as one JSON parameter, and the events that carry
 * them (`order.*`, `purchase_order.received`) stay below D1's 1 MB a row (docs/decisions/events.md).
 */
export const MAX_SERIALS_PER_REQUEST = 5000;

export const SerialNumbers = z
  .array(SerialNumber)
  .min(1, "must name at least one serial number")
  .max(MAX_SERIALS_PER_LINE, `must name at most ${MAX_SERIALS_PER_LINE} serial numbers`)
  // Each unit once, in every request that names serials (adjustments, transfers, receipts, shipments, picks).
  .superRefine((serials, ctx) => {
    for (const serial of new Set(serials.filter((s, i) => serials.indexOf(s) !== i))) {
      ctx.addIssue({ code: "custom", message: `${serial} is given more than once` });
    }
  })
  .openapi({ example: ["SN-0001", "SN-0002"], uniqueItems: true });

/** A request's lines name at most MAX_SERIALS_PER_REQUEST serials in all. */
export const withinSerialsPerRequest = (
  lines: readonly { serialNumbers?: readonly string[] }[] | undefined,
) => (lines ?? []).reduce((n, l) => n + (l.serialNumbers?.length ?? 0), 0) <= MAX_SERIALS_PER_REQUEST;

/** What a stock write of a tracked product names: the lot (new lots may bring their dates) or the serials. */
export const trackedFields = {
  lotNumber: LotNumber.optional().openapi({
    description: "Required for lot-tracked products; a new number creates the lot (on additions).",
  }),
  expiresAt: LotDate.optional().openapi({ description: "The expiry of a new lot (YYYY-MM-DD)." }),
  manufacturedAt: LotDate.optional().openapi({ description: "The manufacturing date of a new lot." }),
  serialNumbers: SerialNumbers.optional().openapi({
    description: "Required for serial-tracked products: one per unit (quantity = their count).",
  }),
};

/** Moving existing stock names its lot or serials; dates only describe a new lot. */
export const movedFields = { lotNumber: trackedFields.lotNumber, serialNumbers: trackedFields.serialNumbers };

/** The lot a level or an allocation holds, if any. */
const levelLotShape = {
  lotId: z.uuid().nullable(),
  lotNumber: z.string().nullable(),
  expiresAt: z
    .string()
    .nullable()
    .openapi({ format: "date", description: "The lot's expiry date, if it has one." }),
};

// Where a level is and what it holds, as a level now and a level at an instant both show it.
export const levelPlaceShape = {
  productId: z.uuid(),
  sku: z.string(),
  productName: z.string(),
  locationId: z.uuid(),
  locationCode: z.string(),
  warehouseId: z.uuid(),
  ...levelLotShape,
};

export const StockLevelRecord = z
  .object({
    ...levelPlaceShape,
    onHand: z.number().int(),
    reserved: z.number().int(),
    available: z.number().int().openapi({
      description: "onHand - reserved; 0 at a non-sellable location, whose stock is never available.",
    }),
    sellable: z.boolean().openapi({
      description:
        "Whether the location is sellable; stock at a non-sellable one (quarantine) is shown apart.",
    }),
    packs: LevelInPacks.optional(),
    updatedAt: z.string().openapi({ format: "date-time" }),
  })
  .openapi("StockLevel");
export type StockLevelRecord = z.infer<typeof StockLevelRecord>;

export const MovementRecord = z
  .object({
    id: z.uuid(),
    productId: z.uuid(),
    locationId: z.uuid(),
    warehouseId: z.uuid(),
    lotId: z.uuid().nullable(),
    lotNumber: z.string().nullable(),
    serialNumbers: z.array(z.string()).nullable(),
    delta: z.number().int(),
    onHandAfter: z.number().int(),
    reason: z.string(),
    referenceType: z.string().nullable(),
    referenceId: z.string().nullable(),
    notes: z.string().nullable(),
    actorType: z.enum(["user", "api_key", "system"]),
    actorId: z.string().nullable(),
    requestId: z.string().nullable(),
    createdAt: z.string().openapi({ format: "date-time" }),
  })
  .openapi("StockMovement");
export type MovementRecord = z.infer<typeof MovementRecord>;

export const HoldStatus = z.enum(holdStatuses).openapi("HoldStatus");
export type HoldStatus = z.infer<typeof HoldStatus>;

export const HoldRecord = z
  .object({
    id: z.uuid(),
    productId: z.uuid(),
    quantity: z.number().int(),
    status: HoldStatus.openapi({
      description: "`expired` as soon as `expiresAt` passes (its stock is given back within 60 seconds).",
    }),
    reference: z.string().nullable(),
    locationId: z.uuid().nullable().openapi({ description: "The location asked for, if any." }),
    warehouseId: z.uuid().nullable().openapi({ description: "The warehouse asked for, if any." }),
    allocations: z
      .array(
        z.object({
          locationId: z.uuid(),
          warehouseId: z.uuid(),
          ...levelLotShape,
          quantity: z.number().int(),
        }),
      )
      .openapi({
        description:
          "Where the quantity is reserved: per location and, for lot-tracked products, per lot (first-expiring first).",
      }),
    expiresAt: z.string().openapi({ format: "date-time" }),
    orderId: z.uuid().nullable().openapi({ description: "The sales order that consumed the hold." }),
    releasedAt: z.string().nullable().openapi({ format: "date-time" }),
    createdAt: z.string().openapi({ format: "date-time" }),
    updatedAt: z.string().openapi({ format: "date-time" }),
  })
  .openapi("StockHold");
export type HoldRecord = z.infer<typeof HoldRecord>;
