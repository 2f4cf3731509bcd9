import type { z } from "@hono/zod-openapi";
import { givenReason } from "./ledger-reasons";
import type { AdjustmentBatchLine, SetLevelBody } from "./line-schemas";
import type { LineTarget } from "./line-targets";
import type { StockLine } from "./stock-lines";

// A bulk stock line as the stock writer takes it (stock-lines.ts), from an adjustment line or a level
// to set: the batches and the stock import job write them alike.

export type BatchLine = Omit<StockLine, "product" | "location"> & { target: LineTarget };

/** An adjustment line, its quantity in base units (`linesInBaseUnits`: the line may give packs). */
export const adjustmentLine = (
  line: z.infer<typeof AdjustmentBatchLine>,
  target: LineTarget,
  quantity: number,
): BatchLine => ({
  target,
  change: { quantity },
  reason: givenReason(line.reason),
  notes: line.notes ?? null,
  lotNumber: line.lotNumber,
  expiresAt: line.expiresAt,
  manufacturedAt: line.manufacturedAt,
  serialNumbers: line.serialNumbers,
});

/** A level to set, its on hand in base units (`linesInBaseUnits`: the level may give packs). */
export const setLevelLine = (level: SetLevelBody, target: LineTarget, onHand: number): BatchLine => ({
  target,
  change: { onHand, expectedOnHand: level.expectedOnHand },
  reason: "set",
  notes: null,
  lotNumber: level.lotNumber,
});
