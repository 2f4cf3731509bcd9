import type { Actor } from "../auth/principal";
import { onlyRow, runBatch } from "../db/batch";
import type { TenantDb } from "../db/client";
import { AppError, errorCodeForStatus } from "../http/errors";
import { resolveLineTargets } from "../stock/line-targets";
import { linesInBaseUnits, onHandAmount } from "../stock/packs";
import { levelSnapshot, movementSnapshot } from "../stock/statements";
import { writeStockLines } from "../stock/stock-lines";
import { setLevelLine } from "./batch-lines";
import { batchResult } from "./batch-results";
import type { LevelsBatchBody, SetLevelBody } from "./batch-schemas";

// Absolute stock: a level's on hand set to a number (the difference is one ledger row, reason `set`), optionally
// only while it is `expectedOnHand` (compare-and-swap).

async function writeLevels(tdb: TenantDb, actor: Actor, levels: readonly SetLevelBody[], atomic: boolean) {
  const { targets, quantities } = await linesInBaseUnits(
    tdb,
    levels.map(onHandAmount),
    await resolveLineTargets(tdb, levels),
  );
  return writeStockLines(
    tdb,
    actor,
    levels.map((level, i) => setLevelLine(level, targets[i] as (typeof targets)[number], quantities[i] ?? 0)),
    { atomic, field: "levels" },
  );
}

/** `PUT /inventory/levels`: the ledger row (null when on hand was already that) and the level as it is now. */
export async function setStockLevel(tdb: TenantDb, actor: Actor, body: SetLevelBody) {
  const [result] = await writeLevels(tdb, actor, [body], false);
  if (!result) throw new Error("Expected one line's result");
  if ("errors" in result) {
    throw new AppError(errorCodeForStatus(result.status), result.errors[0] as string, {
      errors: result.errors,
    });
  }
  const read = await runBatch(tdb, {
    movement: "movementId" in result ? movementSnapshot(tdb, [result.movementId]) : undefined,
    stockLevel: levelSnapshot(tdb, result.level),
  });
  return {
    movement: read.movement ? onlyRow(read.movement) : null,
    stockLevel: read.stockLevel[0] ?? null,
  };
}

/** `POST /inventory/levels/batch`: up to 1,000 levels set in one batch (atomic) or each on its own. */
export async function setStockLevels(tdb: TenantDb, actor: Actor, body: LevelsBatchBody) {
  return batchResult(body.atomic, await writeLevels(tdb, actor, body.levels, body.atomic));
}
