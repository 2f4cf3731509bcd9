import { envelopeOf, ok } from "../http/envelope";
import { createRouter } from "../http/router";
import { defineRoute, errorResponse, jsonContent as json } from "../pipeline/route";
import { readFeed } from "./feed";
import { FeedPage, FeedQuery } from "./schemas";

const feedRoute = defineRoute("tenant", {
  method: "get",
  path: "/events",
  operationId: "listEvents",
  tags: ["Events"],
  summary: "The events feed: every event webhooks deliver, oldest first, in commit order",
  description:
    "Store `nextCursor` and send it back as `after`: you never miss or repeat an event, even while writes happen. " +
    "Items are exactly what webhooks deliver (`id` is the `webhook-id`; `type`, `timestamp` and `data` the body's). " +
    "Which events you see follows your read scopes: `product.*` needs `read:products`, `inventory.*` " +
    "`read:inventory`, `order.*` and `purchase_order.*` `read:orders`. Events are kept at least 30 days; " +
    "`webhook.test` is not part of the feed.",
  request: { query: FeedQuery },
  responses: {
    200: { description: "A page of events and the cursor to continue from", ...json(envelopeOf(FeedPage)) },
    410: errorResponse(
      "The cursor points before the events still kept: resynchronise, then read again without `after`",
    ),
  },
});

export const eventRoutes = createRouter().openapi(feedRoute, async (c) =>
  ok(c, await readFeed(c.var.tenantDb, c.var.scopes, c.req.valid("query"))),
);
