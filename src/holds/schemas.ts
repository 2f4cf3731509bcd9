import { z } from "@hono/zod-openapi";
import { holdStatuses } from "../db/schema/tenant";
import { notBoth, withRules } from "../http/field-rules";
import { pageQuery } from "../http/pagination";
import { amountFields, oneAmountRule } from "../stock";
import { LotNumber } from "../stock/schemas";

/** A hold lasts at most this long. */
export const MAX_HOLD_MS = 7 * 24 * 60 * 60 * 1000;

const Id = (what: string) => z.uuid(`must be a UUID (the ${what}'s id)`);

export const CreateHoldBody = withRules(
  z.strictObject({
    productId: Id("product"),
    ...amountFields(
      z
        .number({ error: "must be a positive integer" })
        .int("must be a positive integer")
        .min(1, "must be a positive integer")
        .max(1_000_000_000, "must be at most 1000000000"),
    ),
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
  }),
  oneAmountRule(),
  notBoth("locationId", "warehouseId"),
).openapi("CreateHoldRequest");
export type CreateHoldBody = z.infer<typeof CreateHoldBody>;

export const HoldsQuery = pageQuery.extend({
  productId: z.uuid("must be a UUID").optional(),
  reference: z.string().trim().min(1).max(100).optional(),
  status: z.enum(holdStatuses, { error: `must be one of ${holdStatuses.join(", ")}` }).optional(),
});
export type HoldsQuery = z.infer<typeof HoldsQuery>;
