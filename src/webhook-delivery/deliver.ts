import { eq } from "drizzle-orm";
import { uuidv7 } from "uuidv7";
import { runBatch } from "../db/batch";
import { dbFor, type TenantDb } from "../db/client";
import { outboxEvents, webhookAttempts, webhookDeliveries, webhookSubscriptions } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import type { Bindings } from "../env";
import { urlGuardOptions } from "../outbound/dns";
import { assertDeliverableUrl } from "../outbound/url-guard";
import { creatorRefusal } from "./creator-rights";
import { type NextStep, nextStep, type Outcome } from "./next-step";
import type { SubscriptionRow } from "./records";
import { type SendResult, sendWebhook, signingSecrets } from "./send-webhook";

/** What the queue should do with the message: done, or try again after a delay. */
export type DeliveryOutcome = { retryAfterSeconds: number } | "done";

type DeliveryRow = typeof webhookDeliveries.$inferSelect;
type EventRow = typeof outboxEvents.$inferSelect;

const notSent = (error: string, stop?: string) => ({
  result: { statusCode: null, durationMs: 0, error },
  outcome: { sent: false, ...(stop ? { stop } : {}) } as Outcome,
});

/**
 * Sends the event unless the subscription or event is gone, its creator may not send it now, or the URL is
 * refused now (each checked before every send).
 */
async function attemptSend(
  env: Bindings,
  subscription: SubscriptionRow | undefined,
  event: EventRow | undefined,
  now: Date,
): Promise<{ result: SendResult; outcome: Outcome }> {
  if (!subscription?.active || !event) return notSent("subscription disabled or deleted");
  const refusal = await creatorRefusal(env, subscription, event.type, now);
  if (refusal && "stop" in refusal) return notSent(`not sent: ${refusal.stop}`, refusal.stop);
  if (refusal) return notSent(`not sent: ${refusal.skip}`);
  // Checked again now, DNS included when deployed: the subscription may predate a rule, or its name may resolve
  // elsewhere since it was saved. The request goes to the normalised URL, the one that was checked.
  let url: URL;
  try {
    url = await assertDeliverableUrl(subscription.url, urlGuardOptions(env));
  } catch (error) {
    const reason =
      error instanceof Error && "errors" in error
        ? String((error as { errors: string[] }).errors[0])
        : "refused";
    return notSent(`refused before sending: ${reason}`);
  }
  const secrets = await signingSecrets(env.WEBHOOK_SECRET_KEY, subscription, now);
  const result = await sendWebhook(url.href, secrets, event, now);
  return { result, outcome: { sent: true, statusCode: result.statusCode } };
}

/** Records an attempt, the delivery's new state and the subscription's changes, in one batch. */
async function record(tdb: TenantDb, delivery: DeliveryRow, result: SendResult, step: NextStep, now: Date) {
  const at = now.toISOString();
  const attempt = delivery.attempts + 1;
  await runBatch(tdb, {
    attempt: tdb.db.insert(webhookAttempts).values({
      id: uuidv7(),
      tenantId: tdb.tenantId,
      deliveryId: delivery.id,
      subscriptionId: delivery.subscriptionId,
      attempt,
      statusCode: result.statusCode,
      durationMs: result.durationMs,
      error: result.error,
      createdAt: at,
    }),
    delivery: tdb.db
      .update(webhookDeliveries)
      .set({
        status: step.status,
        attempts: attempt,
        lastStatusCode: result.statusCode,
        lastDurationMs: result.durationMs,
        lastError: result.error,
        nextAttemptAt:
          step.retryAfterSeconds === null
            ? null
            : new Date(now.getTime() + step.retryAfterSeconds * 1000).toISOString(),
        updatedAt: at,
      })
      .where(inTenant(tdb, webhookDeliveries, eq(webhookDeliveries.id, delivery.id))),
    subscription: step.subscription
      ? tdb.db
          .update(webhookSubscriptions)
          .set({ ...step.subscription, updatedAt: at })
          .where(inTenant(tdb, webhookSubscriptions, eq(webhookSubscriptions.id, delivery.subscriptionId)))
      : undefined,
  });
}

/** Attempts one delivery (Standard Webhooks), records the attempt and what `nextStep` decides. */
export async function deliver(env: Bindings, tenantId: string, deliveryId: string): Promise<DeliveryOutcome> {
  const tdb = await dbFor(env, tenantId);
  const [delivery] = await tdb.db
    .select()
    .from(webhookDeliveries)
    .where(inTenant(tdb, webhookDeliveries, eq(webhookDeliveries.id, deliveryId)))
    .limit(1);
  if (delivery?.status !== "pending") return "done";
  const read = await runBatch(tdb, {
    subscription: tdb.db
      .select()
      .from(webhookSubscriptions)
      .where(inTenant(tdb, webhookSubscriptions, eq(webhookSubscriptions.id, delivery.subscriptionId)))
      .limit(1),
    event: tdb.db
      .select()
      .from(outboxEvents)
      .where(inTenant(tdb, outboxEvents, eq(outboxEvents.id, delivery.eventId)))
      .limit(1),
  });
  const [subscription] = read.subscription;
  const [event] = read.event;
  const now = new Date();

  const { result, outcome } = await attemptSend(env, subscription, event, now);
  const step = nextStep(
    { number: delivery.attempts + 1, failingSince: subscription?.failingSince ?? null, now },
    outcome,
  );
  await record(tdb, delivery, result, step, now);
  return step.retryAfterSeconds === null ? "done" : { retryAfterSeconds: step.retryAfterSeconds };
}
