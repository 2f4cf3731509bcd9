import { uuidv7 } from "uuidv7";
import { runBatch } from "../db/batch";
import type { TenantDb } from "../db/client";
import { webhookDeliveries } from "../db/schema/tenant";
import type { Bindings } from "../env";
import { eventRow } from "../outbox/outbox";
import { deliverNow } from "../webhook-delivery/deliver-now";
import { getSubscription } from "./read-webhook";

/**
 * `POST /webhooks/{id}/test`: a `webhook.test` event delivered to this subscription only (so it is
 * written as already dispatched: the fan-out and the sweep never send it to others), attempted from the
 * request's `waitUntil` as a change's first delivery is.
 */
export async function sendTestEvent(
  env: Bindings,
  ctx: Pick<ExecutionContext, "waitUntil">,
  tdb: TenantDb,
  subscriptionId: string,
) {
  const subscription = await getSubscription(tdb, subscriptionId);
  const now = new Date().toISOString();
  const deliveryId = uuidv7();
  const payload = { webhookId: subscription.id, message: "This is a test event from the Warehouse API." };
  const event = eventRow(tdb, "webhook.test", payload, now, { deliveredByWriter: true });
  const [eventId] = event.eventIds as [string];
  await runBatch(tdb, {
    event,
    delivery: tdb.db.insert(webhookDeliveries).values({
      id: deliveryId,
      tenantId: tdb.tenantId,
      subscriptionId,
      eventId,
      eventType: "webhook.test",
      nextAttemptAt: now,
      createdAt: now,
      updatedAt: now,
    }),
  });
  ctx.waitUntil(deliverNow(env, tdb.tenantId, [deliveryId]));
  return { deliveryId, eventId };
}
