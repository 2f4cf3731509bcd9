import { eq } from "drizzle-orm";
import { uuidv7 } from "uuidv7";
import { type AuditActor, auditRow } from "../../db/audit/writer";
import { runBatch } from "../../db/batch";
import { platformDb } from "../../db/client";
import { answerFor } from "../../db/constraint-errors";
import { tenantMoves, tenants } from "../../db/schema/platform";
import { isShard, shardNames } from "../../db/shards";
import type { MoveFault } from "../../dev/move-fault";
import { AppError, conflict, notFound } from "../../http/errors";
import type { MoveBindings } from "./mover";
import { type MoveRow, moveRecord } from "./records";

/**
 * `POST /platform/tenants/{id}/move`: records a move of `tenantId` to `toShard` and hands it to its TenantMover,
 * which runs it in the background. 404 for an unknown tenant, 400 for an unknown shard, 409 when the tenant is
 * already there or already moving.
 */
export async function startMove(
  env: MoveBindings,
  tenantId: string,
  toShard: string,
  by: AuditActor,
  fault?: MoveFault,
) {
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
    await runBatch(db, {
      move: db.insert(tenantMoves).values(row),
      audit: auditRow({ db, tenantId }, by, {
        action: "tenant.move_started",
        target: { type: "tenant_move", id: row.id },
        after: { fromShard: row.fromShard, toShard },
      }),
    });
  } catch (error) {
    throw answerFor(error, {
      tenant_moves_one_active_idx: () => conflict("This tenant is already being moved"),
    });
  }
  const mover = env.TENANT_MOVER.get(env.TENANT_MOVER.idFromName(row.id));
  await mover.start({ moveId: row.id, tenantId, from: tenant.shard, to: toShard, fault });
  return moveRecord(row);
}
