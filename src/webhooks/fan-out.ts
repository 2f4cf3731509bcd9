import { and, eq } from "drizzle-orm";
import { uuidv7 } from "uuidv7";
import { platformDb } from "../db/client";
import { outboxEvents, webhookDeliveries, webhookSubscriptions } from "../db/schema";
import type { Bindings } from "../env";

// 8 bound values per delivery row; D1 allows 100 per statement, and a Queue sendBatch 100 messages.
const ROWS_PER_INSERT = 12;

/**
 * Turns one committed event into one delivery per matching active subscription and queues them.
 * Running it twice for the same event creates no second delivery (unique subscription + event).
 */
export async function fanOutEvent(env: Bindings, tenantId: string, eventId: string): Promise<number> {
  const db = platformDb(env);
  const [[event], subscriptions] = await db.batch([
    db
      .select({ type: outboxEvents.type })
      .from(outboxEvents)
      .where(and(eq(outboxEvents.tenantId, tenantId), eq(outboxEvents.id, eventId)))
      .limit(1),
    db
      .select({ id: webhookSubscriptions.id, events: webhookSubscriptions.events })
      .from(webhookSubscriptions)
      .where(and(eq(webhookSubscriptions.tenantId, tenantId), eq(webhookSubscriptions.active, true))),
  ]);
  // webhook.test goes only to the subscription it was sent to (written with its delivery).
  if (!event || event.type === "webhook.test") return 0;
  const matching = subscriptions.filter((s) => s.events.includes("*") || s.events.includes(event.type));
  const now = new Date().toISOString();
  let queued = 0;
  for (let i = 0; i < matching.length; i += ROWS_PER_INSERT) {
    const inserted = await db
      .insert(webhookDeliveries)
      .values(
        matching.slice(i, i + ROWS_PER_INSERT).map((s) => ({
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
  return queued;
}
