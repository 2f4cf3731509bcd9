import { type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../env";
import { WebhookBodies } from "../event-schemas/event-bodies";
import { schemaStem } from "../event-schemas/payloads";
import { eventTypes } from "../outbox/catalog";

// OpenAPI 3.1 `webhooks`: what a receiver gets for each event type of the catalogue, the body typed by the
// same schemas the events feed uses, and the Standard Webhooks headers it is signed with
// (src/webhook-delivery/send-webhook.ts, docs/decisions/webhooks.md).

const StandardWebhookHeaders = z.object({
  "webhook-id": z.uuid().openapi({
    description:
      "The event id: the same on every retry and replay of the event, and the feed item's `id` (de-duplicate on it).",
  }),
  "webhook-timestamp": z.string().regex(/^\d+$/).openapi({
    description: "This attempt's time in seconds since the Unix epoch (reject old ones).",
    example: "1764115200",
  }),
  "webhook-signature": z
    .string()
    .regex(/^v1,[A-Za-z0-9+/=]+( v1,[A-Za-z0-9+/=]+)*$/)
    .openapi({
      description:
        "`v1,` and the base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` with the subscription's secret " +
        "(the bytes after `whsec_`, base64-decoded). During a secret rotation's 24 hours two signatures, space-separated: " +
        "accept either. Any Standard Webhooks library verifies it.",
      example: "v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=",
    }),
  "user-agent": z.literal("WarehouseAPI-Webhooks/1"),
});

/** Registers one webhook per event type: `POST` to the subscription's URL with that event's body. */
export function registerWebhooks(registry: OpenAPIHono<AppEnv>["openAPIRegistry"]) {
  for (const type of eventTypes) {
    registry.registerWebhook({
      method: "post",
      path: type,
      operationId: `receive${schemaStem(type)}Webhook`,
      tags: ["Webhooks"],
      // The receiver authenticates the sender by `webhook-signature`, which no OpenAPI security scheme expresses.
      security: [],
      summary: `The \`${type}\` event, posted to subscriptions that name it or \`*\``,
      description:
        type === "webhook.test"
          ? "Sent by `POST /webhooks/{id}/test` to that subscription only."
          : "Signed the Standard Webhooks way. Answer any 2xx within 10 seconds; anything else (a redirect " +
            "included) is retried on the schedule of docs/decisions/webhooks.md, and 410 disables the subscription.",
      request: {
        headers: StandardWebhookHeaders,
        body: { required: true, content: { "application/json": { schema: WebhookBodies[type] } } },
      },
      responses: {
        "2XX": { description: "Received: the delivery succeeded. The body is ignored." },
        410: { description: "Gone: the subscription is disabled at once, and no further event is sent." },
        default: { description: "Any other answer, or none within 10 seconds: the delivery is retried." },
      },
    });
  }
}
