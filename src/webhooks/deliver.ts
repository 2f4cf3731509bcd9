import { and, eq } from "drizzle-orm";
import { uuidv7 } from "uuidv7";
import { platformDb } from "../db/client";
import { outboxEvents, webhookAttempts, webhookDeliveries, webhookSubscriptions } from "../db/schema";
import type { Bindings } from "../env";
import { urlGuardOptions } from "./dns";
import { DISABLE_AFTER_FAILING_MS, retryDelaySeconds } from "./retry-schedule";
import { decryptSecret } from "./secrets";
import { signatureHeader } from "./signature";
import { assertDeliverableUrl } from "./url-guard";

export const DELIVERY_TIMEOUT_MS = 10_000;

/** What the queue should do with the message: done, or try again after a delay. */
export type DeliveryOutcome = { retryAfterSeconds: number } | "done";

interface AttemptResult {
  statusCode: number | null;
  durationMs: number;
  error: string | null;
}

async function post(url: string, headers: Record<string, string>, body: string): Promise<AttemptResult> {
  const started = Date.now();
  try {
    const response = await fetch(url, {
      method: "POST",
      headers,
      body,
      redirect: "manual", // a redirect is a failure: following it could lead anywhere
      signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
    });
    await response.body?.cancel();
    const ok = response.status >= 200 && response.status < 300;
    return {
      statusCode: response.status,
      durationMs: Date.now() - started,
      error: ok ? null : `receiver answered ${response.status}`,
    };
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
    return {
      statusCode: null,
      durationMs: Date.now() - started,
      error: timedOut ? `timed out after ${DELIVERY_TIMEOUT_MS / 1000} s` : `network error: ${String(error)}`,
    };
  }
}

/** Attempts one delivery (Standard Webhooks), records the attempt and decides what happens next. */
export async function deliver(env: Bindings, tenantId: string, deliveryId: string): Promise<DeliveryOutcome> {
  const db = platformDb(env);
  const ofDelivery = and(eq(webhookDeliveries.tenantId, tenantId), eq(webhookDeliveries.id, deliveryId));
  const [delivery] = await db.select().from(webhookDeliveries).where(ofDelivery).limit(1);
  if (delivery?.status !== "pending") return "done";
  const [[subscription], [event]] = await db.batch([
    db
      .select()
      .from(webhookSubscriptions)
      .where(
        and(
          eq(webhookSubscriptions.tenantId, tenantId),
          eq(webhookSubscriptions.id, delivery.subscriptionId),
        ),
      )
      .limit(1),
    db
      .select()
      .from(outboxEvents)
      .where(and(eq(outboxEvents.tenantId, tenantId), eq(outboxEvents.id, delivery.eventId)))
      .limit(1),
  ]);
  const now = new Date();
  const attempt = delivery.attempts + 1;
  const ofSubscription = and(
    eq(webhookSubscriptions.tenantId, tenantId),
    eq(webhookSubscriptions.id, delivery.subscriptionId),
  );

  const finish = async (
    result: AttemptResult,
    status: "pending" | "succeeded" | "failed",
    extra: {
      nextAttemptAt?: string | null;
      subscription?: Partial<typeof webhookSubscriptions.$inferInsert>;
    } = {},
  ) => {
    await db.batch([
      db.insert(webhookAttempts).values({
        id: uuidv7(),
        tenantId,
        deliveryId,
        subscriptionId: delivery.subscriptionId,
        attempt,
        statusCode: result.statusCode,
        durationMs: result.durationMs,
        error: result.error,
        createdAt: now.toISOString(),
      }),
      db
        .update(webhookDeliveries)
        .set({
          status,
          attempts: attempt,
          lastStatusCode: result.statusCode,
          lastDurationMs: result.durationMs,
          lastError: result.error,
          nextAttemptAt: extra.nextAttemptAt ?? null,
          updatedAt: now.toISOString(),
        })
        .where(ofDelivery),
      ...(extra.subscription
        ? [
            db
              .update(webhookSubscriptions)
              .set({ ...extra.subscription, updatedAt: now.toISOString() })
              .where(ofSubscription),
          ]
        : []),
    ]);
  };

  if (!subscription?.active || !event) {
    await finish({ statusCode: null, durationMs: 0, error: "subscription disabled or deleted" }, "failed");
    return "done";
  }
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
    await finish({ statusCode: null, durationMs: 0, error: `refused before sending: ${reason}` }, "failed");
    return "done";
  }

  const secrets = [await decryptSecret(env.WEBHOOK_SECRET_KEY, subscription.secretCiphertext)];
  if (
    subscription.previousSecretCiphertext &&
    subscription.previousSecretExpiresAt &&
    Date.parse(subscription.previousSecretExpiresAt) > now.getTime()
  ) {
    secrets.push(await decryptSecret(env.WEBHOOK_SECRET_KEY, subscription.previousSecretCiphertext));
  }
  const body = JSON.stringify({ type: event.type, timestamp: event.createdAt, data: event.payload });
  const timestamp = Math.floor(now.getTime() / 1000);
  const result = await post(
    url.href,
    {
      "content-type": "application/json",
      "user-agent": "WarehouseAPI-Webhooks/1",
      "webhook-id": event.id,
      "webhook-timestamp": String(timestamp),
      "webhook-signature": await signatureHeader(secrets, event.id, timestamp, body),
    },
    body,
  );

  if (result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300) {
    await finish(
      result,
      "succeeded",
      subscription.failingSince ? { subscription: { failingSince: null } } : {},
    );
    return "done";
  }
  if (result.statusCode === 410) {
    await finish(result, "failed", {
      subscription: { active: false, disabledReason: "The receiver answered 410 Gone" },
    });
    return "done";
  }
  const failingSince = subscription.failingSince ?? now.toISOString();
  if (now.getTime() - Date.parse(failingSince) >= DISABLE_AFTER_FAILING_MS) {
    await finish(result, "failed", {
      subscription: { active: false, disabledReason: "Every delivery failed for 5 days" },
    });
    return "done";
  }
  const delay = retryDelaySeconds(attempt);
  if (delay === null) {
    // Out of attempts: kept as a dead letter (status failed), retryable by hand.
    await finish(result, "failed", { subscription: { failingSince } });
    return "done";
  }
  await finish(result, "pending", {
    nextAttemptAt: new Date(now.getTime() + delay * 1000).toISOString(),
    subscription: { failingSince },
  });
  return { retryAfterSeconds: delay };
}
