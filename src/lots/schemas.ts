import { z } from "@hono/zod-openapi";
import { pageQuery } from "../http/pagination";
import { LotDate, LotNumber } from "../stock/schemas";

export const LotRecord = z
  .object({
    id: z.uuid(),
    productId: z.uuid(),
    number: z.string(),
    expiresAt: z.string().nullable().openapi({ format: "date" }),
    manufacturedAt: z.string().nullable().openapi({ format: "date" }),
    expired: z.boolean().openapi({ description: "Whether the expiry date is today or earlier (UTC)." }),
    createdAt: z.string().openapi({ format: "date-time", description: "When the lot was first received." }),
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
