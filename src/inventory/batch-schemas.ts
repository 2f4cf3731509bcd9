import { z } from "@hono/zod-openapi";
import { nullableRef } from "../http/nullable";
import { AdjustmentBatchLine, SetLevelBody } from "../stock";
import {
  MAX_SERIALS_PER_REQUEST,
  MovementRecord,
  StockLevelRecord,
  withinSerialsPerRequest,
} from "../stock/schemas";

// The shapes of the bulk stock writes: up to 1,000 lines (src/stock/line-schemas.ts), atomic or each on its own.

export const MAX_BATCH_LINES = 1000;

const atomic = z
  .boolean({ error: "must be true or false" })
  .default(true)
  .openapi({
    description:
      "true (default): every line is applied in one batch or none is (a 409/404/400 lists each failing line). " +
      "false: each line is applied on its own; `results` says what became of each.",
  });

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
