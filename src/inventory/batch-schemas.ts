import { z } from "@hono/zod-openapi";
import { MAX_ON_HAND } from "../db/schema/tenant";
import { nullableRef } from "../http/nullable";
import { oneAmount, PacksOrNone, packFields } from "../stock/packs";
import {
  LotNumber,
  MAX_SERIALS_PER_REQUEST,
  MovementRecord,
  StockLevelRecord,
  trackedFields,
  withinSerialsPerRequest,
} from "../stock/schemas";
import { AdjustmentBody } from "./schemas";

// The shapes of the bulk stock writes: lines keyed the way ERPs key them (SKU and location code) or by id.

export const MAX_BATCH_LINES = 1000;

const code = (what: string) =>
  z.string().trim().min(1, "must not be empty").max(64).openapi({ description: what });

/** How a line names its product (SKU or id) and location (code or id; a code used in several warehouses needs the warehouse's). */
const placeFields = {
  sku: z.string().trim().min(1, "must not be empty").max(64).optional().openapi({ example: "WID-001" }),
  productId: z.uuid("must be a UUID (the product's id)").optional(),
  locationCode: code("The location's code (with `warehouseCode` when several warehouses use it).")
    .optional()
    .openapi({ example: "A-01-01" }),
  locationId: z.uuid("must be a UUID (the location's id)").optional(),
  warehouseCode: code(
    "The warehouse of `locationCode`, when several warehouses have a location of that code.",
  ).optional(),
};

type Place = { [K in keyof typeof placeFields]?: string };

/** Exactly one of sku and productId, one of locationCode and locationId; warehouseCode only with locationCode. */
function placeProblems(line: Place, ctx: z.core.$RefinementCtx) {
  const say = (path: string, message: string) => ctx.addIssue({ code: "custom", path: [path], message });
  if ((line.sku === undefined) === (line.productId === undefined))
    say("sku", "give exactly one of sku and productId");
  if ((line.locationCode === undefined) === (line.locationId === undefined)) {
    say("locationCode", "give exactly one of locationCode and locationId");
  }
  if (line.warehouseCode !== undefined && line.locationCode === undefined) {
    say("warehouseCode", "only with locationCode");
  }
}

const atomic = z
  .boolean({ error: "must be true or false" })
  .default(true)
  .openapi({
    description:
      "true (default): every line is applied in one batch or none is (a 409/404/400 lists each failing line). " +
      "false: each line is applied on its own; `results` says what became of each.",
  });

export const AdjustmentBatchLine = z
  .strictObject({
    ...placeFields,
    quantity: AdjustmentBody.shape.quantity,
    packaging: AdjustmentBody.shape.packaging,
    packs: AdjustmentBody.shape.packs,
    reason: AdjustmentBody.shape.reason,
    notes: AdjustmentBody.shape.notes,
    ...trackedFields,
  })
  .superRefine(placeProblems)
  .superRefine((line, ctx) => oneAmount(line, ctx))
  .openapi("AdjustmentBatchLine");

export const AdjustmentBatchBody = z
  .strictObject({
    atomic,
    lines: z
      .array(AdjustmentBatchLine)
      .min(1, "must have at least 1 line")
      .max(MAX_BATCH_LINES, `must have at most ${MAX_BATCH_LINES} lines`)
      .refine(withinSerialsPerRequest, {
        message: `must name at most ${MAX_SERIALS_PER_REQUEST} serial numbers in all`,
      }),
  })
  .openapi("AdjustmentBatchRequest");
export type AdjustmentBatchBody = z.infer<typeof AdjustmentBatchBody>;

const units = (description: string) =>
  z
    .number({ error: "must be an integer" })
    .int("must be an integer")
    .min(0, "must not be negative")
    .max(MAX_ON_HAND, `must be at most ${MAX_ON_HAND}`)
    .openapi({ description });

const levelFields = {
  ...placeFields,
  lotNumber: LotNumber.optional().openapi({
    description: "Required for lot-tracked products; a new number creates the lot (when onHand > 0).",
  }),
  onHand: units("The on hand to set; the difference becomes one ledger row (reason `set`).").optional(),
  ...packFields("onHand", PacksOrNone),
  expectedOnHand: units(
    "Compare-and-swap: set only while on hand is exactly this (0 for a level never stocked); otherwise 409 with " +
      "the current value, and nothing changes.",
  ).optional(),
};

export const SetLevelBody = z
  .strictObject(levelFields)
  .superRefine(placeProblems)
  .superRefine((level, ctx) => oneAmount(level, ctx, true, "onHand"))
  .openapi("SetStockLevelRequest");
export type SetLevelBody = z.infer<typeof SetLevelBody>;

export const LevelsBatchBody = z
  .strictObject({
    atomic,
    levels: z
      .array(SetLevelBody)
      .min(1, "must have at least 1 level")
      .max(MAX_BATCH_LINES, `must have at most ${MAX_BATCH_LINES} levels`),
  })
  .openapi("SetStockLevelsRequest");
export type LevelsBatchBody = z.infer<typeof LevelsBatchBody>;

export const BatchLineResult = z
  .object({
    status: z
      .number()
      .int()
      .openapi({
        description:
          "As an HTTP status: 201 written (a ledger row), 200 unchanged (on hand was already that), 400 the line " +
          "does not fit its product, 404 unknown product or location, 409 the stock does not allow it.",
        example: 201,
      }),
    movementId: z.uuid().optional().openapi({ description: "The ledger row written (status 201)." }),
    onHand: z.number().int().optional().openapi({
      description:
        "On hand after the line; on a 409, on hand as it was read (a compare-and-swap's current value).",
    }),
    errors: z
      .array(z.string())
      .optional()
      .openapi({ example: ["quantity: Insufficient stock: requested 5, available 2"] }),
  })
  .openapi("BatchLineResult");

export const BatchResult = z
  .object({
    atomic: z.boolean(),
    applied: z
      .number()
      .int()
      .openapi({ description: "Lines written or already as asked (status 200 or 201)." }),
    failed: z.number().int(),
    results: z.array(BatchLineResult).openapi({ description: "One per line, in the request's order." }),
  })
  .openapi("StockBatchResult");
export type BatchResult = z.infer<typeof BatchResult>;

export const SetLevelResult = z
  .object({
    movement: nullableRef(MovementRecord).openapi({
      description: "The ledger row; null when on hand was already that.",
    }),
    stockLevel: nullableRef(StockLevelRecord).openapi({
      description: "The level as it is after the write; null for a level never stocked and set to 0.",
    }),
  })
  .openapi("SetStockLevelResult");
