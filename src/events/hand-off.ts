import { and, eq, inArray } from "drizzle-orm";
import { platformDb } from "../db/client";
import { outboxEvents } from "../db/schema";
import type { AppContext, Bindings } from "../env";

/**
 * Hands committed outbox events to the queue and marks them dispatched. Called with
 * `ctx.waitUntil` right after the write's batch; whatever fails here the cron sweep re-enqueues.
 */
export async function handOffEvents(env: Bindings, tenantId: string, eventIds: string[]): Promise<void> {
  if (eventIds.length === 0) return;
  await env.WEBHOOK_QUEUE.sendBatch(
    eventIds.map((eventId) => ({ body: { kind: "event", tenantId, eventId } })),
  );
  await platformDb(env)
    .update(outboxEvents)
    .set({ dispatchedAt: new Date().toISOString() })
    .where(and(eq(outboxEvents.tenantId, tenantId), inArray(outboxEvents.id, eventIds)));
}

// A Queue sendBatch takes at most 100 messages, and marking events dispatched binds each id
// (D1: at most 100 parameters per statement).
const HAND_OFF_CHUNK = 50;

/** Hands a committed write's events to the queue without delaying the response. */
export function handOffAfterCommit(c: AppContext, eventIds: readonly string[]): void {
  for (let i = 0; i < eventIds.length; i += HAND_OFF_CHUNK) {
    const ids = eventIds.slice(i, i + HAND_OFF_CHUNK);
    c.executionCtx.waitUntil(handOffEvents(c.env, c.var.tenantDb.tenantId, ids));
  }
}
