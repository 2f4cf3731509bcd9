import { count, desc, eq, inArray } from "drizzle-orm";
import { uuidv7 } from "uuidv7";
import { runBatch } from "../db/batch";
import type { TenantDb } from "../db/client";
import { readPage } from "../db/pages";
import { webhookAttempts, webhookDeliveries } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import type { Bindings } from "../env";
import { eventRow } from "../events/outbox";
import { notFound } from "../http/errors";
import { offsetOf } from "../http/pagination";
import type { ListDeliveriesQuery } from "./schemas";
import { getSubscription } from "./subscriptions";

const RECENT_ATTEMPTS = 10;

/** `GET /webhooks/{id}/deliveries`: newest first, each with its recent attempts. */
export async function listDeliveries(tdb: TenantDb, subscriptionId: string, query: ListDeliveriesQuery) {
  await getSubscription(tdb, subscriptionId);
  const where = inTenant(
    tdb,
    webhookDeliveries,
    eq(webhookDeliveries.subscriptionId, subscriptionId),
    query.status ? eq(webhookDeliveries.status, query.status) : undefined,
  );
  const page = await readPage(tdb, query, {
    rows: tdb.db
      .select()
      .from(webhookDeliveries)
      .where(where)
      .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
      .limit(query.pageSize)
      .offset(offsetOf(query)),
    count: tdb.db.select({ value: count() }).from(webhookDeliveries).where(where),
  });
  const attempts = page.items.length
    ? await tdb.db
        .select()
        .from(webhookAttempts)
        .where(
          inTenant(
            tdb,
            webhookAttempts,
            inArray(
              webhookAttempts.deliveryId,
              page.items.map((r) => r.id),
            ),
          ),
        )
        .orderBy(desc(webhookAttempts.attempt))
    : [];
  const items = page.items.map(({ tenantId: _t, subscriptionId: _s, replayId, ...delivery }) => ({
    ...delivery,
    replayId: replayId || null,
    attemptLog: attempts
      .filter((a) => a.deliveryId === delivery.id)
      .slice(0, RECENT_ATTEMPTS)
      .map((a) => ({
        attempt: a.attempt,
        statusCode: a.statusCode,
        durationMs: a.durationMs,
        error: a.error,
        at: a.createdAt,
      })),
  }));
  return { ...page, items };
}

function enqueueDelivery(env: Bindings, tenantId: string, deliveryId: string) {
  return env.WEBHOOK_QUEUE.send({ kind: "delivery", tenantId, deliveryId });
}

/** `POST .../deliveries/{deliveryId}/retry`: a fresh series of attempts for one delivery, whatever its state. */
export async function retryDelivery(
  env: Bindings,
  tdb: TenantDb,
  subscriptionId: string,
  deliveryId: string,
) {
  await getSubscription(tdb, subscriptionId);
  const [row] = await tdb.db
    .update(webhookDeliveries)
    .set({
      status: "pending",
      attempts: 0,
      nextAttemptAt: new Date().toISOString(),
      updatedAt: new Date().toISOString(),
    })
    .where(
      inTenant(
        tdb,
        webhookDeliveries,
        eq(webhookDeliveries.subscriptionId, subscriptionId),
        eq(webhookDeliveries.id, deliveryId),
      ),
    )
    .returning();
  if (!row) throw notFound("Delivery");
  await enqueueDelivery(env, tdb.tenantId, row.id);
  return { deliveryId: row.id, eventId: row.eventId };
}

/**
 * `POST /webhooks/{id}/test`: a `webhook.test` event delivered to this subscription only (so it is
 * written as already dispatched: the fan-out and the sweep never send it to others).
 */
export async function sendTestEvent(env: Bindings, tdb: TenantDb, subscriptionId: string) {
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
  await enqueueDelivery(env, tdb.tenantId, deliveryId);
  return { deliveryId, eventId };
}
