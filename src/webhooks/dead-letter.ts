import { eq } from "drizzle-orm";
import { dbFor } from "../db/client";
import { webhookDeliveries } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import type { Bindings, WebhookQueueMessage } from "../env";
import { log } from "../observability/log";

/**
 * A message that kept failing in the consumer itself (not at the receiver) lands in the dead-letter
 * queue: its delivery is marked failed with the reason, so it shows in the deliveries list and can
 * be retried by hand. An event that could not be fanned out is logged for the operator.
 */
export async function recordDeadLetter(env: Bindings, message: WebhookQueueMessage): Promise<void> {
  if (message.kind === "event") {
    log("error", "event dead-lettered before fan-out", { ...message });
    return;
  }
  const tdb = await dbFor(env, message.tenantId);
  await tdb.db
    .update(webhookDeliveries)
    .set({
      status: "failed",
      lastError: "dead-lettered after repeated consumer errors",
      updatedAt: new Date().toISOString(),
    })
    .where(inTenant(tdb, webhookDeliveries, eq(webhookDeliveries.id, message.deliveryId)));
}
