import { type SQL, sql } from "drizzle-orm";
import { uuidv7 } from "uuidv7";
import type { Actor } from "../auth/principal";
import type { TenantDb } from "../db/client";

/** A status history row, written only when `guard` holds (raw: an insert from a guarded select). */
export function historyInsert(
  tdb: TenantDb,
  orderId: string,
  from: string,
  to: string,
  actor: Actor,
  now: string,
  guard: SQL,
) {
  return sql`insert into order_status_history (id, tenant_id, order_id, from_status, to_status, actor_type, actor_id, created_at)
        select ${uuidv7()}, ${tdb.tenantId}, ${orderId}, ${from}, ${to}, ${actor.actorType}, ${actor.actorId}, ${now}
        where ${guard}`;
}
