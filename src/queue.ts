import type { Bindings, WebhookQueueMessage } from "./env";
import { deliver } from "./webhook-delivery/deliver";
import { fanOutEvent } from "./webhook-delivery/fan-out";
import { recordDeadLetter } from "./webhooks/dead-letter";

/**
 * The queue consumer: an `event` message fans out into deliveries, a `delivery` message is one
 * attempt. Retries follow our own schedule (`retry({ delaySeconds })`); an unexpected error
 * (D1 unavailable...) retries with the queue's default and, after max_retries, dead-letters.
 */
export async function consumeQueue(batch: MessageBatch<WebhookQueueMessage>, env: Bindings): Promise<void> {
  const deadLetters = batch.queue.endsWith("-dlq");
  // Messages are independent (each its own receiver and rows), so one slow receiver (up to the 10 s
  // timeout) does not hold up the rest of the batch.
  await Promise.all(batch.messages.map((message) => consumeMessage(message, deadLetters, batch.queue, env)));
}

async function consumeMessage(
  message: Message<WebhookQueueMessage>,
  deadLetters: boolean,
  queue: string,
  env: Bindings,
): Promise<void> {
  try {
    if (deadLetters) {
      await recordDeadLetter(env, message.body);
      message.ack();
    } else if (message.body.kind === "event") {
      // A retry asks the directory: the shard the message names may be one the tenant has moved from.
      const { tenantId, eventId, shard } = message.body;
      await fanOutEvent(env, tenantId, eventId, message.attempts === 1 ? shard : undefined);
      message.ack();
    } else {
      const outcome = await deliver(env, message.body.tenantId, message.body.deliveryId);
      if (outcome === "done") message.ack();
      else message.retry({ delaySeconds: outcome.retryAfterSeconds });
    }
  } catch (error) {
    console.error(
      JSON.stringify({
        level: "error",
        msg: "queue message failed",
        queue,
        body: message.body,
        error: String(error),
      }),
    );
    message.retry();
  }
}
