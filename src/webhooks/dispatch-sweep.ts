import { and, asc, eq, isNull, lte, or } from "drizzle-orm";
import { inJsonArray } from "../db/batch";
import { tenantDatabases } from "../db/client";
import { outboxEvents, webhookDeliveries } from "../db/schema/tenant";
import type { Bindings } from "../env";
import { handOffEvents } from "../events/hand-off";

// An event younger than this is probably still being handed over by its request's waitUntil.
const GRACE_MS = 10_000;
// A handed-off event not fanned out this long after its (last) hand-off has lost its queue message: the soak
// found 1,202 events lost when wrangler dev was killed with them in its local queue. Minutes, not seconds: a
// message merely waiting in a backlog would otherwise be doubled every run (harmless, fan-out is idempotent).
export const UNPROCESSED_MS = 3 * 60_000;
const PER_RUN = 500;

/**
 * The cron trigger's safety net for the outbox: any committed event that was not handed to the queue (the
 * isolate died, the queue refused), or was handed off but never fanned out (the queue lost the message), is
 * handed over again, so no event is ever lost. Each hand-off moves `dispatched_at` to now, so an event still in
 * flight is handed off again at most every UNPROCESSED_MS.
 */
export async function redispatchOutbox(env: Bindings, now = new Date()): Promise<number> {
  let handedOff = 0;
  for (const db of tenantDatabases(env)) {
    const pending = await db
      .select({ id: outboxEvents.id, tenantId: outboxEvents.tenantId })
      .from(outboxEvents)
      .where(
        and(
          isNull(outboxEvents.processedAt),
          lte(outboxEvents.createdAt, new Date(now.getTime() - GRACE_MS).toISOString()),
          or(
            isNull(outboxEvents.dispatchedAt),
            lte(outboxEvents.dispatchedAt, new Date(now.getTime() - UNPROCESSED_MS).toISOString()),
          ),
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

// A pending delivery this long past its attempt time has lost its queue message: fan-out inserted it, but the
// message never reached the queue (the isolate died in between, sendBatch failed) or the queue lost it. Retrying
// the event cannot help (the delivery exists, so fan-out queues nothing), so the sweep queues the delivery again.
const OVERDUE_MS = 2 * 60_000;
// One Queue sendBatch (at most 100 messages) per database and run.
const DELIVERIES_PER_RUN = 100;

/**
 * The cron trigger's safety net for deliveries (found by the soak: a `wrangler dev` restart stranded every
 * delivery still queued). Its attempt time moves to now first, so a message merely waiting in a long backlog is
 * not queued again by every run; at worst a receiver gets one delivery twice, under one webhook-id.
 */
export async function redispatchOverdueDeliveries(env: Bindings, now = new Date()): Promise<number> {
  let requeued = 0;
  for (const db of tenantDatabases(env)) {
    const overdue = await db
      .select({ id: webhookDeliveries.id, tenantId: webhookDeliveries.tenantId })
      .from(webhookDeliveries)
      .where(
        and(
          eq(webhookDeliveries.status, "pending"),
          lte(webhookDeliveries.nextAttemptAt, new Date(now.getTime() - OVERDUE_MS).toISOString()),
        ),
      )
      .orderBy(asc(webhookDeliveries.nextAttemptAt))
      .limit(DELIVERIES_PER_RUN);
    if (overdue.length === 0) continue;
    await db
      .update(webhookDeliveries)
      .set({ nextAttemptAt: now.toISOString() })
      .where(
        inJsonArray(
          webhookDeliveries.id,
          overdue.map((delivery) => delivery.id),
        ),
      );
    await env.WEBHOOK_QUEUE.sendBatch(
      overdue.map(({ id, tenantId }) => ({ body: { kind: "delivery", tenantId, deliveryId: id } })),
    );
    requeued += overdue.length;
  }
  return requeued;
}
