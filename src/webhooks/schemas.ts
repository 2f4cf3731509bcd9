import { z } from "@hono/zod-openapi";
import { pageQuery } from "../http/pagination";
import { IdParam } from "../http/params";
import { ReceiverUrl } from "../outbound/receiver-url";
import { eventTypes, feedTypes } from "../outbox/catalog";

export const MAX_SUBSCRIPTIONS_PER_TENANT = 20;
export const MAX_EVENTS_PER_SUBSCRIPTION = 50;

const EventName = z
  .enum(["*", ...eventTypes], { error: `must be * or one of ${eventTypes.join(", ")}` })
  .openapi("WebhookEventName", { example: "inventory.adjusted" });

const subscriptionFields = {
  url: ReceiverUrl,
  events: z
    .array(EventName)
    .min(1, "at least one event is required")
    .max(MAX_EVENTS_PER_SUBSCRIPTION, `at most ${MAX_EVENTS_PER_SUBSCRIPTION} events`),
  description: z.string().trim().max(500).optional(),
  active: z.boolean().optional(),
};

export const CreateWebhookBody = z.strictObject(subscriptionFields).openapi("CreateWebhookRequest");
export type CreateWebhookBody = z.infer<typeof CreateWebhookBody>;

export const UpdateWebhookBody = z
  .strictObject({ ...subscriptionFields, active: z.boolean() })
  .openapi("UpdateWebhookRequest");
export type UpdateWebhookBody = z.infer<typeof UpdateWebhookBody>;

export const WebhookRecord = z
  .object({
    id: z.uuid(),
    url: z.string(),
    events: z.array(z.string()),
    description: z.string().nullable(),
    active: z.boolean(),
    disabledReason: z
      .string()
      .nullable()
      .openapi({
        description:
          "Why the server disabled it: the receiver answered 410, 5 days of failures, or its creator can no longer " +
          "act for it (left the tenant, key revoked or expired; such a subscription cannot be re-enabled: create a new one).",
      }),
    failingSince: z.string().nullable().openapi({ format: "date-time" }),
    createdBy: z
      .object({
        type: z.enum(["user", "api_key"]),
        id: z.string().openapi({ description: "The user or API key." }),
      })
      .nullable()
      .openapi({
        description:
          "Who created it. It delivers only the events its creator may read now, and stops (see `disabledReason`) " +
          "when the creator leaves the tenant or, for a key, is revoked or expires. Null for subscriptions made " +
          "before creators were recorded.",
      }),
    createdAt: z.string().openapi({ format: "date-time" }),
    updatedAt: z.string().openapi({ format: "date-time" }),
  })
  .openapi("Webhook");

export const WebhookWithSecret = WebhookRecord.extend({
  secret: z.string().openapi({ description: "The whsec_ signing secret: shown in this response only." }),
}).openapi("WebhookWithSecret");

export const DeliveryRecord = z
  .object({
    id: z.uuid(),
    eventId: z.string(),
    eventType: z.string(),
    replayId: z.uuid().nullable().openapi({
      description:
        "The replay (POST /webhooks/{id}/replay) that made this delivery; null for the event's first.",
    }),
    status: z.enum(["pending", "succeeded", "failed"]),
    attempts: z.number().int(),
    lastStatusCode: z.number().int().nullable(),
    lastDurationMs: z.number().int().nullable(),
    lastError: z.string().nullable(),
    nextAttemptAt: z.string().nullable().openapi({ format: "date-time" }),
    createdAt: z.string().openapi({ format: "date-time" }),
    updatedAt: z.string().openapi({ format: "date-time" }),
    attemptLog: z.array(
      z.object({
        attempt: z.number().int(),
        statusCode: z.number().int().nullable(),
        durationMs: z.number().int(),
        error: z.string().nullable(),
        at: z.string(),
      }),
    ),
  })
  .openapi("WebhookDelivery");

export const ReplayBody = z
  .strictObject({
    from: z.iso.datetime({ offset: true, message: "must be an ISO 8601 timestamp" }),
    to: z.iso.datetime({ offset: true, message: "must be an ISO 8601 timestamp" }),
    types: z
      .array(z.enum(feedTypes, { error: "must be an event type of the catalogue" }))
      .min(1, "must name at least one type")
      .max(MAX_EVENTS_PER_SUBSCRIPTION)
      .optional()
      .openapi({ description: "Only these types (of those the subscription matches)." }),
  })
  .openapi("ReplayWebhookRequest");
export type ReplayBody = z.infer<typeof ReplayBody>;

export const ReplayResult = z
  .object({
    replayId: z.uuid().nullable().openapi({
      description: "Marks the new deliveries (`replayId` in the delivery list); null when nothing matched.",
    }),
    queued: z.number().int().openapi({ description: "Events queued for delivery again." }),
    alreadyWaiting: z
      .number()
      .int()
      .openapi({
        description:
          "Events of the range left out because an earlier replay's delivery of them to this subscription is " +
          "still waiting (replaying the same range again queues nothing twice).",
      }),
  })
  .openapi("WebhookReplay");

export const QueuedDelivery = z
  .object({ deliveryId: z.uuid(), eventId: z.string() })
  .openapi("QueuedDelivery");

export const DeliveryParams = IdParam.extend({
  deliveryId: z
    .uuid("must be a UUID")
    .openapi({ param: { name: "deliveryId", in: "path" }, example: "0193a5c2-0d4b-7e8f-a1c3-5b7d9f1e3a6c" }),
});

export const ListWebhooksQuery = pageQuery;
export const ListDeliveriesQuery = pageQuery.extend({
  status: z.enum(["pending", "succeeded", "failed"]).optional(),
});
export type ListDeliveriesQuery = z.infer<typeof ListDeliveriesQuery>;
