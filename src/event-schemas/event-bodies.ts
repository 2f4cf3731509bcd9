import { z } from "@hono/zod-openapi";
import { type EventType, eventTypes } from "../outbox/catalog";
import { eventPayloads, schemaStem } from "./payloads";

// An event as it leaves the outbox: the body a webhook receiver gets (src/openapi/webhooks.ts), which a feed item
// extends with its id (src/events/schemas.ts).

const timestamp = z.string().openapi({
  format: "date-time",
  description: "When the change committed.",
});

/** The body a webhook receiver gets for an event of `type`; its `data` has the event's own schema (payloads.ts). */
export const bodyShape = <T extends EventType>(type: T) => ({
  type: z.literal(type),
  timestamp,
  data: eventPayloads[type],
});

const webhookBody = <T extends EventType>(type: T) =>
  z.object(bodyShape(type)).openapi(`${schemaStem(type)}WebhookBody`);

export const WebhookBodies = Object.fromEntries(eventTypes.map((type) => [type, webhookBody(type)])) as {
  [T in EventType]: ReturnType<typeof webhookBody<T>>;
};
