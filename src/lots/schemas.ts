import { z } from "@hono/zod-openapi";
import { pageQuery } from "../http/pagination";

export const LotNumber = z
  .string()
  .trim()
  .min(1, "must not be empty")
  .max(64, "must be at most 64 characters")
  .openapi({ example: "L2026-11-A" });

/** A calendar date (YYYY-MM-DD): a lot is expired from its expiry date on. */
const LotDate = z.iso.date("must be a date (YYYY-MM-DD)");

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
  .openapi({ example: ["SN-0001", "SN-0002"] });

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

export const LotRecord = z
  .object({
    id: z.uuid(),
    productId: z.uuid(),
    number: z.string(),
    expiresAt: z.string().nullable(),
    manufacturedAt: z.string().nullable(),
    expired: z.boolean().openapi({ description: "Whether the expiry date is today or earlier (UTC)." }),
    createdAt: z.string().openapi({ description: "When the lot was first received." }),
  })
  .openapi("Lot");
export type LotRecord = z.infer<typeof LotRecord>;

export const LotStock = z
  .object({
    locationId: z.uuid(),
    locationCode: z.string(),
    warehouseId: z.uuid(),
    onHand: z.number().int(),
    reserved: z.number().int(),
    available: z.number().int(),
  })
  .openapi("LotStock");

export const LotDetail = LotRecord.extend({
  stock: z.array(LotStock),
  onHand: z.number().int(),
}).openapi("LotDetail");

const booleanFlag = z
  .enum(["true", "false"], { error: "must be true or false" })
  .transform((v) => v === "true")
  .optional();

export const LotsQuery = pageQuery.extend({
  productId: z.uuid("must be a UUID").optional(),
  number: LotNumber.optional(),
  expiringBefore: LotDate.optional().openapi({ description: "Lots expiring before this date (YYYY-MM-DD)." }),
  expired: booleanFlag.openapi({ description: "Only expired (true) or only unexpired (false) lots." }),
});
export type LotsQuery = z.infer<typeof LotsQuery>;

export const LotTraceEntry = z
  .object({
    movementId: z.uuid(),
    at: z.string(),
    locationId: z.uuid(),
    warehouseId: z.uuid(),
    delta: z.number().int(),
    reason: z.string(),
    referenceType: z.string().nullable(),
    referenceId: z.string().nullable(),
    orderNumber: z
      .string()
      .nullable()
      .openapi({ description: "The order a receipt or shipment belongs to." }),
    customerId: z.uuid().nullable(),
    supplier: z.string().nullable(),
  })
  .openapi("LotTraceEntry");

export const LotTrace = z
  .object({
    lot: LotRecord,
    movements: z.array(LotTraceEntry).openapi({ description: "Every ledger row of the lot, oldest first." }),
    openOrders: z
      .array(
        z.object({
          orderId: z.uuid(),
          orderNumber: z.string(),
          status: z.string(),
          customerId: z.uuid().nullable(),
          reserved: z.number().int(),
        }),
      )
      .openapi({ description: "Sales orders holding stock of the lot, not shipped yet." }),
  })
  .openapi("LotTrace");
