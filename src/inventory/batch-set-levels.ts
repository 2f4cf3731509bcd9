import type { Actor } from "../auth/principal";
import type { TenantDb } from "../db/client";
import { batchResult } from "./batch-results";
import type { LevelsBatchBody } from "./batch-schemas";
import { writeLevels } from "./write-levels";

/** `POST /inventory/levels/batch`: up to 1,000 levels set in one batch (atomic) or each on its own. */
export async function setStockLevels(tdb: TenantDb, actor: Actor, body: LevelsBatchBody) {
  return batchResult(body.atomic, await writeLevels(tdb, actor, body.levels, body.atomic));
}
