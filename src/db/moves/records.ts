import { and, eq, inArray } from "drizzle-orm";
import { uuidv7 } from "uuidv7";
import { AppError, conflict, notFound } from "../../http/errors";
import type { DatabaseBindings } from "../bindings";
import { platformDb } from "../client";
import { answerFor } from "../constraint-errors";
import { tenantMoves, tenants } from "../schema/platform";
import { isShard, shardNames } from "../shards";
import type { MoveFault, TenantMover } from "./mover";

type MoveRow = typeof tenantMoves.$inferSelect;
export type MoveStatus = MoveRow["status"];

/** The bindings a move needs: the databases and the Durable Objects that drive moves. */
export interface MoveBindings extends DatabaseBindings {
  TENANT_MOVER: DurableObjectNamespace<TenantMover>;
}

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

/**
 * Records a move of `tenantId` to `toShard` and hands it to its TenantMover, which runs it in the
 * background. 404 for an unknown tenant, 400 for an unknown shard, 409 when the tenant is already there
 * or already moving.
 */
export async function startMove(env: MoveBindings, tenantId: string, toShard: string, fault?: MoveFault) {
  const db = platformDb(env);
  const [tenant] = await db.select({ shard: tenants.shard }).from(tenants).where(eq(tenants.id, tenantId));
  if (!tenant) throw notFound("Tenant");
  if (!isShard(env, toShard)) {
    const names = shardNames(env).join(", ");
    throw new AppError("VALIDATION_FAILED", `shard must be one of ${names}`, {
      errors: [`shard: must be one of ${names}`],
    });
  }
  if (tenant.shard === toShard) throw conflict(`The tenant is already on ${toShard}`);
  const at = new Date().toISOString();
  const row: MoveRow = {
    id: uuidv7(),
    tenantId,
    fromShard: tenant.shard,
    toShard,
    status: "copying",
    reason: null,
    rowsCopied: 0,
    createdAt: at,
    updatedAt: at,
    finishedAt: null,
  };
  try {
    await db.insert(tenantMoves).values(row);
  } catch (error) {
    throw answerFor(error, {
      tenant_moves_one_active_idx: () => conflict("This tenant is already being moved"),
    });
  }
  const mover = env.TENANT_MOVER.get(env.TENANT_MOVER.idFromName(row.id));
  await mover.start({ moveId: row.id, tenantId, from: tenant.shard, to: toShard, fault });
  return moveRecord(row);
}

export async function findMove(env: DatabaseBindings, id: string) {
  const [row] = await platformDb(env).select().from(tenantMoves).where(eq(tenantMoves.id, id));
  if (!row) throw notFound("Move");
  return moveRecord(row);
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
