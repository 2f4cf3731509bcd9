import type { Bindings, WebhookQueueMessage } from "./env";
import { log } from "./observability/log";
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
  const started = Date.now();
  const outcomes = await Promise.all(
    batch.messages.map((message) => consumeMessage(message, deadLetters, batch.queue, env)),
  );
  log("info", "queue batch", {
    queue: batch.queue,
    messages: batch.messages.length,
    acked: outcomes.filter((outcome) => outcome === "acked").length,
    retried: outcomes.filter((outcome) => outcome === "retried").length,
    durationMs: Date.now() - started,
  });
}

async function consumeMessage(
  message: Message<WebhookQueueMessage>,
  deadLetters: boolean,
  queue: string,
  env: Bindings,
): Promise<"acked" | "retried"> {
  try {
    if (deadLetters) {
      await recordDeadLetter(env, message.body);
    } else if (message.body.kind === "event") {
      // A retry asks the directory: the shard the message names may be one the tenant has moved from.
      const { tenantId, eventId, shard } = message.body;
      await fanOutEvent(env, tenantId, eventId, message.attempts === 1 ? shard : undefined);
    } else {
      const outcome = await deliver(env, message.body.tenantId, message.body.deliveryId);
      if (outcome !== "done") {
        message.retry({ delaySeconds: outcome.retryAfterSeconds });
        return "retried";
      }
    }
    message.ack();
    return "acked";
  } catch (error) {
    log("error", "queue message failed", { queue, body: message.body, error: String(error) });
    message.retry();
    return "retried";
  }
}
