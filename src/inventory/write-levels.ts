import type { Actor } from "../auth/principal";
import type { TenantDb } from "../db/client";
import {
  linesInBaseUnits,
  onHandAmount,
  resolveLineTargets,
  type SetLevelBody,
  setLevelLine,
  writeStockLines,
} from "../stock";

// Absolute stock: a level's on hand set to a number (the difference is one ledger row, reason `set`), optionally
// only while it is `expectedOnHand` (compare-and-swap).

/** Sets each level (all or none when `atomic`): one result per level, in order. */
export async function writeLevels(
  tdb: TenantDb,
  actor: Actor,
  levels: readonly SetLevelBody[],
  atomic: boolean,
) {
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
