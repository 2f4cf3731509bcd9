import { and, eq, inArray } from "drizzle-orm";
import { platformDb } from "../db/client";
import { outboxEvents } from "../db/schema";
import type { Bindings } from "../env";

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
