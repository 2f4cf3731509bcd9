import { z } from "@hono/zod-openapi";
import { holdStatuses } from "../../db/schema/tenant";
import { pageQuery } from "../../http/pagination";
import { LotNumber } from "../../lots/schemas";

/** A hold lasts at most this long. */
export const MAX_HOLD_MS = 7 * 24 * 60 * 60 * 1000;

const Id = (what: string) => z.uuid(`must be a UUID (the ${what}'s id)`);

export const CreateHoldBody = z
  .strictObject({
    productId: Id("product"),
    quantity: z
      .number({ error: "must be a positive integer" })
      .int("must be a positive integer")
      .min(1, "must be a positive integer")
      .max(1_000_000_000, "must be at most 1000000000"),
    locationId: Id("location").optional().openapi({ description: "Hold only at this location." }),
    warehouseId: Id("warehouse")
      .optional()
      .openapi({ description: "Hold only from this warehouse's locations." }),
    expiresAt: z.iso
      .datetime({ offset: true, message: "must be an ISO 8601 timestamp" })
      .openapi({ description: "When the hold lapses by itself: in the future, at most 7 days ahead." }),
    reference: z
      .string()
      .trim()
      .min(1, "must not be empty")
      .max(100, "must be at most 100 characters")
      .optional()
      .openapi({ description: "Your cart, quote or session id; filterable.", example: "cart-8841" }),
    lotNumber: LotNumber.optional().openapi({
      description:
        "Hold only from this lot (lot-tracked products); otherwise lots are held first-expiring-first-out. " +
        "Expired lots are never held.",
    }),
  })
  .refine((b) => !(b.locationId && b.warehouseId), {
    message: "give locationId or warehouseId, not both",
    path: ["warehouseId"],
  })
  .openapi("CreateHoldRequest");
export type CreateHoldBody = z.infer<typeof CreateHoldBody>;

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
          lotId: z.uuid().nullable(),
          lotNumber: z.string().nullable(),
          expiresAt: z.string().nullable().openapi({ description: "The lot's expiry date, if it has one." }),
          quantity: z.number().int(),
        }),
      )
      .openapi({
        description:
          "Where the quantity is reserved: per location and, for lot-tracked products, per lot (first-expiring first).",
      }),
    expiresAt: z.string(),
    orderId: z.uuid().nullable().openapi({ description: "The sales order that consumed the hold." }),
    releasedAt: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi("StockHold");
export type HoldRecord = z.infer<typeof HoldRecord>;

export const HoldsQuery = pageQuery.extend({
  productId: z.uuid("must be a UUID").optional(),
  reference: z.string().trim().min(1).max(100).optional(),
  status: z.enum(holdStatuses, { error: `must be one of ${holdStatuses.join(", ")}` }).optional(),
});
export type HoldsQuery = z.infer<typeof HoldsQuery>;
