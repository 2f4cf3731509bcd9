import { z } from "@hono/zod-openapi";
import { bodyShape } from "../event-schemas/event-bodies";
import { schemaStem } from "../event-schemas/payloads";
import { nameList } from "../http/name-list";
import { type FeedType, feedTypes } from "../outbox/catalog";

const typeNames = nameList(feedTypes, "event type").openapi({
  type: "string",
  // The characters of names, families and commas; which names exist the description says.
  pattern: "^[a-z_.*, ]+$",
  description:
    "Comma-separated event types, or families such as `order.*`. Default: every type your scopes can read.",
  example: "inventory.adjusted,order.*",
});

export const FeedQuery = z.object({
  after: z.string().min(1).max(64).optional().openapi({
    description:
      "The `nextCursor` of the previous page. Without it the feed starts at the oldest kept event.",
  }),
  type: typeNames.optional(),
  limit: z.coerce
    .number({ error: "must be an integer between 1 and 500" })
    .int("must be an integer between 1 and 500")
    .min(1, "must be an integer between 1 and 500")
    .max(500, "must be an integer between 1 and 500")
    .default(100),
});
export type FeedQuery = z.infer<typeof FeedQuery>;

/** A feed item: a delivered body with the event's id (its deliveries' `webhook-id`). */
const feedEvent = (type: FeedType) =>
  z
    .object({
      id: z.string().openapi({ description: "The event id: the `webhook-id` of its deliveries." }),
      ...bodyShape(type),
      webhooksFailedAt: z
        .string()
        .optional()
        .openapi({
          format: "date-time",
          description:
            "Only on an event webhooks gave up: handing it to its subscriptions failed for about half an hour " +
            "(10 hand-offs), so no delivery was made. Deliver it with POST /webhooks/{id}/replay.",
        }),
    })
    .openapi(`${schemaStem(type)}Event`);

type FeedEventSchema = ReturnType<typeof feedEvent>;

/** One feed item, its `data` typed by its `type` (a `oneOf` with `type` as the discriminator). */
export const FeedEvent = z
  .discriminatedUnion("type", feedTypes.map(feedEvent) as [FeedEventSchema, ...FeedEventSchema[]])
  .openapi("Event");
export type FeedEvent = z.infer<typeof FeedEvent>;

export const FeedPage = z
  .object({
    items: z.array(FeedEvent),
    nextCursor: z.string().openapi({ description: "Store it; send it as `after` to continue." }),
    hasMore: z.boolean().openapi({ description: "More events are already waiting: call again at once." }),
  })
  .openapi("EventFeedPage");
