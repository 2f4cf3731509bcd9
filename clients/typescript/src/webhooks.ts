import { Webhook, WebhookVerificationError } from "standardwebhooks";

export { WebhookVerificationError };

/** A webhook delivery's body: the event type, when it happened, and the resource after the change. */
export type WebhookEvent<T = unknown> = { type: string; timestamp: string; data: T };

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
 * with the `whsec_...` secret, timestamps within 5 minutes) and returns its parsed body. Pass the body exactly
 * as received, before any JSON parsing. Throws `WebhookVerificationError` when forged, altered or stale.
 */
export function verifyWebhook<T = unknown>(
  secret: string,
  rawBody: string,
  headers: HeaderSource,
): WebhookEvent<T> {
  return new Webhook(secret).verify(rawBody, headerRecord(headers)) as WebhookEvent<T>;
}
