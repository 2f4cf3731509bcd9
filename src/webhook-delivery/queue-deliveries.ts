import { chunks } from "../db/batch";
import type { Bindings } from "../env";

// A Queue sendBatch takes at most 100 messages.
const MESSAGES_PER_SEND = 100;

/**
 * Hands deliveries to the queue, one message each (a message is one attempt: src/queue.ts), to be attempted
 * after `delaySeconds` (a retry queued by the committing request's first attempt, webhook-delivery/deliver-now.ts).
 */
export async function queueDeliveries(
  env: Bindings,
  tenantId: string,
  deliveryIds: readonly string[],
  delaySeconds?: number,
): Promise<void> {
  await Promise.all(
    chunks(deliveryIds, MESSAGES_PER_SEND).map((ids) =>
      env.WEBHOOK_QUEUE.sendBatch(
        ids.map((deliveryId) => ({
          body: { kind: "delivery" as const, tenantId, deliveryId },
          ...(delaySeconds === undefined ? {} : { delaySeconds }),
        })),
      ),
    ),
  );
}
