import { and, eq, inArray } from "drizzle-orm";
import type { DatabaseBindings } from "../../db/bindings";
import { platformDb } from "../../db/client";
import { tenantMoves, tenants } from "../../db/schema/platform";

// A move's row in the platform database (tenant_moves): what `GET /platform/moves/{id}` shows, the progress the
// TenantMover records, and the directory switch that places the tenant on its new shard.

export type MoveRow = typeof tenantMoves.$inferSelect;

/** A move as the API shows it. */
export function moveRecord(row: MoveRow) {
  return {
    id: row.id,
    tenantId: row.tenantId,
    fromShard: row.fromShard,
    toShard: row.toShard,
    status: row.status,
    reason: row.reason,
    rowsCopied: row.rowsCopied,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    finishedAt: row.finishedAt,
  };
}

/** Records a move's progress. */
export async function updateMove(
  env: DatabaseBindings,
  id: string,
  changes: Partial<Pick<MoveRow, "status" | "reason" | "rowsCopied">>,
) {
  const at = new Date().toISOString();
  const finished = changes.status === "done" || changes.status === "failed";
  await platformDb(env)
    .update(tenantMoves)
    .set({ ...changes, updatedAt: at, ...(finished ? { finishedAt: at } : {}) })
    .where(eq(tenantMoves.id, id));
}

/**
 * Points the directory at the new shard, only if the tenant is still where the move found it (a retried
 * step finds it switched already). From here on every lookup places the tenant on `to`.
 */
export async function switchDirectory(
  env: DatabaseBindings,
  move: { moveId: string; tenantId: string; from: string; to: string },
): Promise<boolean> {
  const db = platformDb(env);
  const [row] = await db
    .update(tenants)
    .set({ shard: move.to, updatedAt: new Date().toISOString() })
    .where(and(eq(tenants.id, move.tenantId), inArray(tenants.shard, [move.from, move.to])))
    .returning({ shard: tenants.shard });
  if (row?.shard !== move.to) return false;
  await updateMove(env, move.moveId, { status: "switching" });
  return true;
}
