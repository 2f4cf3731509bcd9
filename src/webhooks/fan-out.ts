import { eq, isNull } from "drizzle-orm";
import { uuidv7 } from "uuidv7";
import { chunks, runBatch } from "../db/batch";
import { dbFor } from "../db/client";
import { outboxEvents, webhookDeliveries, webhookSubscriptions } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import type { Bindings } from "../env";

// 8 bound values per delivery row; D1 allows 100 per statement, and a Queue sendBatch 100 messages.
const ROWS_PER_INSERT = 12;

/**
 * Turns one committed event into one delivery per matching active subscription, queues them, and marks the
 * event processed (the dispatch sweep hands off again an event left unprocessed). Running it twice for the same
 * event, a doubled hand-off, creates and queues no second delivery (unique subscription + event).
 */
export async function fanOutEvent(env: Bindings, tenantId: string, eventId: string): Promise<number> {
  const tdb = await dbFor(env, tenantId);
  const read = await runBatch(tdb, {
    event: tdb.db
      .select({ type: outboxEvents.type })
      .from(outboxEvents)
      .where(inTenant(tdb, outboxEvents, eq(outboxEvents.id, eventId)))
      .limit(1),
    subscriptions: tdb.db
      .select({ id: webhookSubscriptions.id, events: webhookSubscriptions.events })
      .from(webhookSubscriptions)
      .where(inTenant(tdb, webhookSubscriptions, eq(webhookSubscriptions.active, true))),
  });
  const [event] = read.event;
  // webhook.test goes only to the subscription it was sent to (written with its delivery, processed).
  if (!event || event.type === "webhook.test") return 0;
  const matching = read.subscriptions.filter((s) => s.events.includes("*") || s.events.includes(event.type));
  const now = new Date().toISOString();
  let queued = 0;
  for (const chunk of chunks(matching, ROWS_PER_INSERT)) {
    const inserted = await tdb.db
      .insert(webhookDeliveries)
      .values(
        chunk.map((s) => ({
          id: uuidv7(),
          tenantId,
          subscriptionId: s.id,
          eventId,
          eventType: event.type,
          nextAttemptAt: now,
          createdAt: now,
          updatedAt: now,
        })),
      )
      .onConflictDoNothing()
      .returning({ id: webhookDeliveries.id });
    if (inserted.length > 0) {
      await env.WEBHOOK_QUEUE.sendBatch(
        inserted.map(({ id }) => ({ body: { kind: "delivery" as const, tenantId, deliveryId: id } })),
      );
      queued += inserted.length;
    }
  }
  // Last: a failure before this leaves the event unprocessed, and the sweep hands it off again.
  await tdb.db
    .update(outboxEvents)
    .set({ processedAt: now })
    .where(inTenant(tdb, outboxEvents, eq(outboxEvents.id, eventId), isNull(outboxEvents.processedAt)));
  return queued;
}
