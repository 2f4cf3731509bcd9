import type { Bindings } from "../env";
import { log } from "../observability/log";
import { deliver } from "./deliver";
import { queueDeliveries } from "./queue-deliveries";

/**
 * First attempts a request makes itself, from its `waitUntil`: six, the connections one Workers invocation may
 * have waiting for response headers at once (a seventh would wait for one of them), so every first attempt leaves
 * at once and, at the 10 s receiver timeout, all are done well inside the 30 s `waitUntil` allows after the response.
 */
export const DELIVERIES_ATTEMPTED_NOW = 6;

/**
 * Sends deliveries a request just committed without the queue's batch wait (docs/decisions/webhooks.md, "First
 * attempts from the committing request"): the first `attemptsNow` are attempted here, each recorded as the queue
 * consumer would; one that asks for a retry is queued with its delay, the rest are queued at once. An isolate that
 * dies part-way leaves its deliveries pending with their attempt time, which the overdue-delivery sweep resends.
 */
export async function deliverNow(
  env: Bindings,
  tenantId: string,
  deliveryIds: readonly string[],
  attemptsNow = DELIVERIES_ATTEMPTED_NOW,
): Promise<void> {
  await Promise.all([
    queueDeliveries(env, tenantId, deliveryIds.slice(attemptsNow)),
    ...deliveryIds.slice(0, attemptsNow).map((deliveryId) => attemptNow(env, tenantId, deliveryId)),
  ]);
}

async function attemptNow(env: Bindings, tenantId: string, deliveryId: string): Promise<void> {
  try {
    const outcome = await deliver(env, tenantId, deliveryId);
    if (outcome !== "done") await queueDeliveries(env, tenantId, [deliveryId], outcome.retryAfterSeconds);
  } catch (error) {
    // As the consumer does with a message that failed (D1 unavailable...): the queue tries it again.
    log("error", "first webhook attempt failed; queued", { tenantId, deliveryId, error: String(error) });
    await queueDeliveries(env, tenantId, [deliveryId]);
  }
}
