import { z } from "@hono/zod-openapi";
import { MAX_ON_HAND } from "../db/schema/tenant";
import { pageQuery } from "../http/pagination";
import { adjustmentFields, amountFields, MovementNotes, PackagingCode, withOneAmount } from "../stock";

import {
  LotNumber,
  levelPlaceShape,
  MovementRecord,
  movedFields,
  StockLevelRecord,
  trackedFields,
} from "../stock/schemas";

const Id = (what: string) => z.uuid(`must be a UUID (the ${what}'s id)`);

export const AdjustmentBody = withOneAmount(
  z.strictObject({
    productId: Id("product"),
    locationId: Id("location"),
    ...adjustmentFields,
    ...trackedFields,
  }),
).openapi("AdjustmentRequest");
export type AdjustmentBody = z.infer<typeof AdjustmentBody>;

// JSON Schema cannot compare two fields' values, so toLocationId's description states that rule.
export const TransferBody = withOneAmount(
  z.strictObject({
    productId: Id("product"),
    fromLocationId: Id("location"),
    toLocationId: Id("location").openapi({
      description: "Another location than fromLocationId (the same is a 400).",
    }),
    ...amountFields(
      z
        .number({ error: "must be an integer" })
        .int("must be an integer")
        .min(1, "must be greater than 0")
        .max(1_000_000_000, "must be at most 1000000000")
        .openapi({
          description: `A stock level holds at most ${MAX_ON_HAND} units; a transfer past that is a 409.`,
        }),
    ),
    notes: MovementNotes,
    ...movedFields,
  }),
)
  .refine((t) => t.fromLocationId !== t.toLocationId, {
    message: "must differ from fromLocationId",
    path: ["toLocationId"],
  })
  .openapi("TransferRequest");
export type TransferBody = z.infer<typeof TransferBody>;

export const AdjustmentResult = z
  .object({ movement: MovementRecord, stockLevel: StockLevelRecord })
  .openapi("AdjustmentResult");

export const TransferResult = z
  .object({
    transferId: z.uuid(),
    from: StockLevelRecord,
    to: StockLevelRecord,
    movements: z.array(MovementRecord),
  })
  .openapi("TransferResult");

const optionalId = z.uuid("must be a UUID").optional();
const booleanFlag = z
  .enum(["true", "false"], { error: "must be true or false" })
  .transform((v) => v === "true")
  .optional();
const timestamp = z.iso
  .datetime({ offset: true, message: "must be an ISO 8601 timestamp" })
  .or(z.iso.date("must be an ISO 8601 date or timestamp"))
  .optional();

export const StockQuery = pageQuery.extend({
  productId: optionalId,
  locationId: optionalId,
  warehouseId: optionalId,
  sku: z.string().trim().min(1).max(100).optional().openapi({ description: "Exactly this SKU." }),
  search: z.string().trim().min(1).max(100).optional().openapi({
    description:
      "Levels of products whose SKU starts with it or whose name contains it (case-insensitive; `%` and `_` are literal).",
    example: "MUG",
  }),
  lotId: optionalId,
  lotNumber: LotNumber.optional(),
  packaging: PackagingCode.optional().openapi({
    description:
      "Also show each level in packs of this packaging (`packs`: whole packs and the remainder in units); " +
      "levels of products without it show `packs: null`. Not with asOf.",
  }),
  belowReorderPoint: booleanFlag.openapi({
    description: "Only levels of products at or below their reorder point.",
  }),
  sellable: booleanFlag.openapi({
    description:
      "Only levels at sellable locations (true) or only those at non-sellable ones such as quarantine (false). " +
      "Not for a kit.",
  }),
  asOf: z.iso
    .datetime({ offset: true, message: "must be an ISO 8601 timestamp" })
    .optional()
    .openapi({
      description:
        "Stock as it was at this instant (inclusive), from the ledger: each level's `onHand` then (one row per lot " +
        "for lot-tracked products; the lot filters apply), for levels that had stock history by then. Not in the " +
        "future; not with belowReorderPoint.",
    }),
});
export type StockQuery = z.infer<typeof StockQuery>;

export const StockLevelAsOfRecord = z
  .object({
    ...levelPlaceShape,
    onHand: z.number().int().openapi({ description: "On hand at `asOf`." }),
    asOf: z.string().openapi({ format: "date-time" }),
    lastMovementAt: z
      .string()
      .openapi({ format: "date-time", description: "The ledger row that set `onHand` (at or before asOf)." }),
  })
  .openapi("StockLevelAsOf");

export const MovementsQuery = pageQuery.extend({
  productId: optionalId,
  locationId: optionalId,
  warehouseId: optionalId,
  lotId: optionalId,
  reason: z.string().trim().min(1).max(64).optional(),
  reference: z.string().trim().min(1).max(100).optional().openapi({ description: "A transfer or order id." }),
  from: timestamp,
  to: timestamp,
});
export type MovementsQuery = z.infer<typeof MovementsQuery>;
