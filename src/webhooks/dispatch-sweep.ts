import { and, asc, eq, isNull, lte, or, sql } from "drizzle-orm";
import { inJsonArray, runBatch } from "../db/batch";
import { type TenantDatabase, tenantDatabases } from "../db/client";
import { outboxEvents, webhookDeliveries } from "../db/schema/tenant";
import type { Bindings } from "../env";
import { log } from "../observability/log";
import { handOffEvents } from "../outbox/hand-off";
import { queueDeliveries } from "../webhook-delivery/queue-deliveries";

// An event younger than this is probably still being handed over by its request's waitUntil.
const GRACE_MS = 10_000;
// A handed-off event not fanned out this long after its (last) hand-off has lost its queue message: the soak
// found 1,202 events lost when wrangler dev was killed with them in its local queue. Minutes, not seconds: a
// message merely waiting in a backlog would otherwise be doubled every run (harmless, fan-out is idempotent).
export const UNPROCESSED_MS = 3 * 60_000;
const EVENTS_PER_RUN = 500;
/**
 * Hand-offs again (every UNPROCESSED_MS, so about half an hour) after which an event still not fanned out is
 * given up: it is marked failed (the feed shows `webhooksFailedAt`) and an error line is logged, instead of being
 * handed off every few minutes forever. Its deliveries can still be made with POST /webhooks/{id}/replay.
 */
export const MAX_REDISPATCHES = 10;
// A pending delivery this long past its attempt time has lost its queue message: fan-out inserted it, but the
// message never reached the queue (the isolate died in between, sendBatch failed) or the queue lost it. Retrying
// the event cannot help (the delivery exists, so fan-out queues nothing), so the sweep queues the delivery again.
const OVERDUE_MS = 2 * 60_000;
// One Queue sendBatch (at most 100 messages) per database and run.
const DELIVERIES_PER_RUN = 100;

/** Ids grouped by the tenant they belong to (a database holds several tenants). */
function byTenant(rows: readonly { id: string; tenantId: string }[]): Map<string, string[]> {
  const grouped = new Map<string, string[]>();
  for (const { id, tenantId } of rows) grouped.set(tenantId, [...(grouped.get(tenantId) ?? []), id]);
  return grouped;
}

type LostEvent = {
  id: string;
  tenantId: string;
  type: string;
  dispatchedAt: string | null;
  redispatches: number;
};

/**
 * Counts each hand-off again of an event that was handed off before, and gives up on one handed off again
 * MAX_REDISPATCHES times: marked failed (and processed, so no sweep reads it again) and logged. The events
 * left to hand off are returned.
 */
async function giveUpOnFailing(db: TenantDatabase, events: readonly LostEvent[], now: Date) {
  const again = events.filter((event) => event.dispatchedAt !== null);
  const failing = again.filter((event) => event.redispatches >= MAX_REDISPATCHES);
  if (again.length === 0) return events;
  await runBatch(db, {
    counted: db
      .update(outboxEvents)
      .set({ redispatches: sql`${outboxEvents.redispatches} + 1` })
      .where(
        inJsonArray(
          outboxEvents.id,
          again.filter((event) => !failing.includes(event)).map(({ id }) => id),
        ),
      ),
    failed: db
      .update(outboxEvents)
      .set({ fanOutFailedAt: now.toISOString(), processedAt: now.toISOString() })
      .where(
        inJsonArray(
          outboxEvents.id,
          failing.map(({ id }) => id),
        ),
      ),
  });
  for (const { id, tenantId, type, redispatches } of failing) {
    log(
      "error",
      "webhook fan-out given up: the event was handed off again and again and never fanned out; replay it to deliver it",
      { tenantId, eventId: id, type, handOffs: redispatches + 1 },
    );
  }
  return events.filter((event) => !failing.includes(event));
}

/**
 * The cron trigger's safety net for webhooks, so no committed change misses its receivers: in one read per
 * database it finds
 * - events not handed to the queue (the isolate died, the queue refused) or handed off and never fanned out
 *   (the queue lost the message, the fan-out failed), and hands them off again; each hand-off moves
 *   `dispatched_at` to now, so an event still in flight is handed off again at most every UNPROCESSED_MS, and
 *   at most MAX_REDISPATCHES times;
 * - pending deliveries whose message was lost (found by the soak: a `wrangler dev` restart stranded every
 *   delivery still queued), and queues them again; their attempt time moves to now first, so a message merely
 *   waiting in a long backlog is not queued again by every run; at worst a receiver gets one delivery twice,
 *   under one webhook-id.
 */
export async function redispatchLost(
  env: Bindings,
  now = new Date(),
): Promise<{ events: number; deliveries: number }> {
  const handedOff = { events: 0, deliveries: 0 };
  const ago = (ms: number) => new Date(now.getTime() - ms).toISOString();
  for (const db of tenantDatabases(env)) {
    const lost = await runBatch(db, {
      events: db
        .select({
          id: outboxEvents.id,
          tenantId: outboxEvents.tenantId,
          type: outboxEvents.type,
          dispatchedAt: outboxEvents.dispatchedAt,
          redispatches: outboxEvents.redispatches,
        })
        .from(outboxEvents)
        .where(
          and(
            isNull(outboxEvents.processedAt),
            lte(outboxEvents.createdAt, ago(GRACE_MS)),
            or(isNull(outboxEvents.dispatchedAt), lte(outboxEvents.dispatchedAt, ago(UNPROCESSED_MS))),
          ),
        )
        .orderBy(asc(outboxEvents.createdAt))
        .limit(EVENTS_PER_RUN),
      deliveries: db
        .select({ id: webhookDeliveries.id, tenantId: webhookDeliveries.tenantId })
        .from(webhookDeliveries)
        .where(
          and(eq(webhookDeliveries.status, "pending"), lte(webhookDeliveries.nextAttemptAt, ago(OVERDUE_MS))),
        )
        .orderBy(asc(webhookDeliveries.nextAttemptAt))
        .limit(DELIVERIES_PER_RUN),
    });
    const events = await giveUpOnFailing(db, lost.events, now);
    for (const [tenantId, ids] of byTenant(events)) await handOffEvents(env, tenantId, ids);
    if (lost.deliveries.length > 0) {
      await db
        .update(webhookDeliveries)
        .set({ nextAttemptAt: now.toISOString() })
        .where(
          inJsonArray(
            webhookDeliveries.id,
            lost.deliveries.map(({ id }) => id),
          ),
        );
      for (const [tenantId, ids] of byTenant(lost.deliveries)) await queueDeliveries(env, tenantId, ids);
    }
    handedOff.events += events.length;
    handedOff.deliveries += lost.deliveries.length;
  }
  return handedOff;
}
