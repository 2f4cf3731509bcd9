import type { Statement } from "../db/batch";
import type { TenantDb } from "../db/client";
import { formatIssues } from "../http/validation";
import type { RowError } from "../record-schemas/job";
import {
  AdjustmentBatchLine,
  adjustmentLine,
  type BatchLine,
  type LedgerReason,
  type LineRef,
  type LineTarget,
  linesInBaseUnits,
  onHandAmount,
  type PackedAmount,
  resolveLineTargets,
  SetLevelBody,
  setLevelLine,
  writeStockLines,
} from "../stock";

import { type ParsedRow, writeRows } from "./import-rows";
import { actorOfJob, type JobRow } from "./job-rows";

// stock_import: each row an adjustment (`quantity`, with a `reason` or the job's) or an absolute on hand (`onHand`,
// with an optional compare-and-swap `expectedOnHand`), keyed like the batches (sku or productId, locationCode or
// locationId, warehouseCode), written by the stock writer the batches use, each row on its own.

/** How the CSV's cells are typed: the columns that hold numbers. */
export const STOCK_CSV_COLUMNS = { numeric: new Set(["quantity", "onHand", "expectedOnHand"]) };

const DEFAULT_REASON: LedgerReason = "import";

/** A row's stock line (given its product and location), or why it has none. CSV lists serials in one cell, `|` between. */
function lineOf(value: Record<string, unknown>, reason: string): Planned | { errors: string[] } {
  const row = { ...value };
  if (typeof row.serialNumbers === "string") {
    row.serialNumbers = row.serialNumbers.split("|").flatMap((s) => (s.trim() ? [s.trim()] : []));
  }
  if ("onHand" in row && "quantity" in row) {
    return { errors: ["quantity: give quantity (an adjustment) or onHand (a set), not both"] };
  }
  if ("onHand" in row) {
    const level = SetLevelBody.safeParse(row);
    if (!level.success) return { errors: formatIssues(level.error.issues) };
    return {
      ref: level.data,
      amount: onHandAmount(level.data),
      toLine: (target, onHand) => setLevelLine(level.data, target, onHand),
    };
  }
  const line = AdjustmentBatchLine.safeParse({ reason, ...row });
  if (!line.success) return { errors: formatIssues(line.error.issues) };
  return {
    ref: line.data,
    amount: line.data,
    toLine: (target, quantity) => adjustmentLine(line.data, target, quantity),
  };
}

interface Planned {
  ref: LineRef;
  /** The row's quantity, or a set's on hand, as given (units, or packs of a packaging). */
  amount: PackedAmount;
  toLine: (target: LineTarget, quantity: number) => BatchLine;
}

/** Writes the rows' stock lines in ONE batch with `commit(errors)`, the job's record of the chunk. */
export function importStockRows(
  tdb: TenantDb,
  job: JobRow,
  rows: readonly ParsedRow[],
  commit: (errors: RowError[]) => Statement[],
): Promise<void> {
  const reason = typeof job.options.reason === "string" ? job.options.reason : DEFAULT_REASON;
  return writeRows<Planned>(
    tdb,
    rows,
    (value) => {
      const planned = lineOf(value, reason);
      return "errors" in planned ? planned : { item: planned };
    },
    async (items, commitWith) => {
      const { targets, quantities } = await linesInBaseUnits(
        tdb,
        items.map((item) => item.amount),
        await resolveLineTargets(
          tdb,
          items.map((item) => item.ref),
        ),
      );
      return writeStockLines(
        tdb,
        actorOfJob(job),
        items.map((item, i) => item.toLine(targets[i] as LineTarget, quantities[i] ?? 0)),
        { atomic: false, field: "rows", commitWith },
      );
    },
    commit,
  );
}
