import type { Actor } from "../auth/principal";
import { onlyRow, runBatch } from "../db/batch";
import type { TenantDb } from "../db/client";
import { AppError, errorCodeForStatus } from "../http/errors";
import { levelSnapshot, movementSnapshot, type SetLevelBody } from "../stock";

import { writeLevels } from "./write-levels";

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
