import type { Actor } from "../auth/principal";
import type { TenantDb } from "../db/client";
import { adjustmentLine, linesInBaseUnits, resolveLineTargets, writeStockLines } from "../stock";

import { batchResult } from "./batch-results";
import type { AdjustmentBatchBody } from "./batch-schemas";

/**
 * `POST /inventory/adjustments/batch`: up to 1,000 adjustments keyed by SKU and location code (or ids), with the
 * ledger rows and events of single adjustments, written in one batch (atomic) or each on its own.
 */
export async function adjustStockBatch(tdb: TenantDb, actor: Actor, body: AdjustmentBatchBody) {
  const { targets, quantities } = await linesInBaseUnits(
    tdb,
    body.lines,
    await resolveLineTargets(tdb, body.lines),
  );
  const results = await writeStockLines(
    tdb,
    actor,
    body.lines.map((line, i) =>
      adjustmentLine(line, targets[i] as (typeof targets)[number], quantities[i] ?? 0),
    ),
    { atomic: body.atomic, field: "lines" },
  );
  return batchResult(body.atomic, results);
}
