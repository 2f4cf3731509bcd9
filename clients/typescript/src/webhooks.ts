import { Webhook, WebhookVerificationError } from "standardwebhooks";
import type { components, webhooks } from "./generated/schema.js";

export { WebhookVerificationError };

type BodyOf<W> = W extends { post: { requestBody?: { content: { "application/json": infer B } } } }
  ? B
  : never;

/**
 * A webhook delivery's body, one type per event the document's `webhooks` declare: checking `type` narrows `data`
 * (`event.type === "order.created"`: `event.data` is an Order).
 */
export type WebhookEvent = { [Type in keyof webhooks]: BodyOf<webhooks[Type]> }[keyof webhooks];

/** An item of the events feed, one type per event: checking `type` narrows `data` as for a webhook. */
export type Event = components["schemas"]["Event"];

type HeaderSource = Headers | Record<string, string | string[] | undefined>;

function headerRecord(headers: HeaderSource): Record<string, string> {
  if (typeof (headers as Headers).get === "function") {
    const h = headers as Headers;
    return Object.fromEntries(
      ["webhook-id", "webhook-timestamp", "webhook-signature"].map((name) => [name, h.get(name) ?? ""]),
    );
  }
  return Object.fromEntries(
    Object.entries(headers as Record<string, string | string[] | undefined>).map(([name, value]) => [
      name.toLowerCase(),
      Array.isArray(value) ? value.join(" ") : (value ?? ""),
    ]),
  );
}

/**
 * Verifies a delivery (Standard Webhooks: `webhook-id`, `webhook-timestamp`, `webhook-signature`, HMAC-SHA256
 * with the `whsec_...` secret, timestamps within 5 minutes) and returns its parsed body, typed per event. Pass the
 * body exactly as received, before any JSON parsing. Throws `WebhookVerificationError` when forged, altered or
 * stale. A type newer than this version is returned as parsed all the same (switch on `type` with a default).
 */
export function verifyWebhook(secret: string, rawBody: string, headers: HeaderSource): WebhookEvent {
  return new Webhook(secret).verify(rawBody, headerRecord(headers)) as WebhookEvent;
}
