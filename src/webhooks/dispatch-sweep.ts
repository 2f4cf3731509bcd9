import { and, asc, isNull, lte } from "drizzle-orm";
import { tenantDatabases } from "../db/client";
import { outboxEvents } from "../db/schema/tenant";
import type { Bindings } from "../env";
import { handOffEvents } from "../events/hand-off";

// An event younger than this is probably still being handed over by its request's waitUntil.
const GRACE_MS = 10_000;
const PER_RUN = 500;

/**
 * The cron trigger's safety net for the outbox: any committed event that was not handed to the
 * queue (the isolate died, the queue refused) is handed over again, so no event is ever lost.
 */
export async function redispatchOutbox(env: Bindings, now = new Date()): Promise<number> {
  let handedOff = 0;
  for (const db of tenantDatabases(env)) {
    const pending = await db
      .select({ id: outboxEvents.id, tenantId: outboxEvents.tenantId })
      .from(outboxEvents)
      .where(
        and(
          isNull(outboxEvents.dispatchedAt),
          lte(outboxEvents.createdAt, new Date(now.getTime() - GRACE_MS).toISOString()),
        ),
      )
      .orderBy(asc(outboxEvents.createdAt))
      .limit(PER_RUN);
    const byTenant = new Map<string, string[]>();
    for (const { id, tenantId } of pending) byTenant.set(tenantId, [...(byTenant.get(tenantId) ?? []), id]);
    for (const [tenantId, ids] of byTenant) await handOffEvents(env, tenantId, ids);
    handedOff += pending.length;
  }
  return handedOff;
}
