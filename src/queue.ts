import type { Bindings, WebhookQueueMessage } from "./env";

/** The queue consumer: webhook fan-out and delivery (filled in by the webhooks issue). */
export async function consumeQueue(batch: MessageBatch<WebhookQueueMessage>, _env: Bindings): Promise<void> {
  batch.ackAll();
}
