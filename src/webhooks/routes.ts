import type { AppContext } from "../env";
import { accepted, created, envelopeOf, ok } from "../http/envelope";
import { pagedOf } from "../http/pagination";
import { IdParam } from "../http/params";
import { createRouter } from "../http/router";
import { urlGuardOptions } from "../outbound/dns";
import { assertDeliverableUrl } from "../outbound/url-guard";
import { auditActor } from "../pipeline/audit-actor";
import { defineRoute, errorResponse, jsonContent as json } from "../pipeline/route";
import { createSubscription } from "./create-webhook";
import { deleteSubscription } from "./delete-webhook";
import { listDeliveries } from "./list-deliveries";
import { listSubscriptions } from "./list-webhooks";
import { getSubscription } from "./read-webhook";
import { webhookRecord } from "./records";
import { replayEvents } from "./replay";
import { retryDelivery } from "./retry-delivery";
import { rotateSecret } from "./rotate-secret";
import {
  CreateWebhookBody,
  DeliveryParams,
  DeliveryRecord,
  ListDeliveriesQuery,
  ListWebhooksQuery,
  QueuedDelivery,
  ReplayBody,
  ReplayResult,
  UpdateWebhookBody,
  WebhookRecord,
  WebhookWithSecret,
} from "./schemas";
import { sendTestEvent } from "./test-webhook";
import { updateSubscription } from "./update-webhook";

// A merchant-scoped credential's subscriptions receive its merchant's events only (src/db/merchant-scope.ts).
const admin = { scope: "admin", merchants: true } as const;
const tags = ["Webhooks"];
const unknown = { 404: errorResponse("Unknown webhook") };

const listWebhooksRoute = defineRoute(admin, {
  method: "get",
  path: "/webhooks",
  operationId: "listWebhooks",
  tags,
  summary: "List webhook subscriptions",
  request: { query: ListWebhooksQuery },
  responses: { 200: { description: "A page of subscriptions", ...json(envelopeOf(pagedOf(WebhookRecord))) } },
});

const createWebhookRoute = defineRoute(admin, {
  method: "post",
  path: "/webhooks",
  operationId: "createWebhook",
  tags,
  summary: "Subscribe a URL to events",
  description:
    "The URL must be https:// on a public host (checked now and before every delivery). Events are catalogue names or `*`. " +
    "The `whsec_` signing secret is in this response only. At most 20 subscriptions per tenant, 50 events each.",
  request: { body: { required: true, ...json(CreateWebhookBody) } },
  responses: {
    201: { description: "The subscription and its secret", ...json(envelopeOf(WebhookWithSecret)) },
  },
});

const getWebhookRoute = defineRoute(admin, {
  method: "get",
  path: "/webhooks/{id}",
  operationId: "getWebhook",
  tags,
  summary: "Get a subscription",
  request: { params: IdParam },
  responses: { 200: { description: "The subscription", ...json(envelopeOf(WebhookRecord)) }, ...unknown },
});

const updateWebhookRoute = defineRoute(admin, {
  method: "put",
  path: "/webhooks/{id}",
  operationId: "updateWebhook",
  tags,
  summary: "Replace a subscription's URL, events, description and active flag",
  description:
    "Setting `active: true` re-enables a subscription the server disabled, unless its creator can no longer act " +
    "for it (409: create a new subscription).",
  request: { params: IdParam, body: { required: true, ...json(UpdateWebhookBody) } },
  responses: {
    200: { description: "The subscription", ...json(envelopeOf(WebhookRecord)) },
    ...unknown,
    409: errorResponse("Its creator can no longer act for it: it cannot be re-enabled"),
  },
});

const deleteWebhookRoute = defineRoute(admin, {
  method: "delete",
  path: "/webhooks/{id}",
  operationId: "deleteWebhook",
  tags,
  summary: "Delete a subscription and its delivery history",
  request: { params: IdParam },
  responses: {
    200: { description: "The deleted subscription", ...json(envelopeOf(WebhookRecord)) },
    ...unknown,
  },
});

const testWebhookRoute = defineRoute(admin, {
  method: "post",
  path: "/webhooks/{id}/test",
  operationId: "testWebhook",
  tags,
  summary: "Send a webhook.test event to this subscription",
  request: { params: IdParam },
  responses: { 202: { description: "Queued", ...json(envelopeOf(QueuedDelivery)) }, ...unknown },
});

const listWebhookDeliveriesRoute = defineRoute(admin, {
  method: "get",
  path: "/webhooks/{id}/deliveries",
  operationId: "listWebhookDeliveries",
  tags,
  summary: "Deliveries of this subscription, newest first, with their attempts",
  request: { params: IdParam, query: ListDeliveriesQuery },
  responses: {
    200: { description: "A page of deliveries", ...json(envelopeOf(pagedOf(DeliveryRecord))) },
    ...unknown,
  },
});

const retryWebhookDeliveryRoute = defineRoute(admin, {
  method: "post",
  path: "/webhooks/{id}/deliveries/{deliveryId}/retry",
  operationId: "retryWebhookDelivery",
  tags,
  summary: "Deliver again (for example a dead letter after the receiver is fixed)",
  request: { params: DeliveryParams },
  responses: {
    202: { description: "Queued", ...json(envelopeOf(QueuedDelivery)) },
    404: errorResponse("Unknown webhook or delivery"),
  },
});

const replayWebhookRoute = defineRoute(admin, {
  method: "post",
  path: "/webhooks/{id}/replay",
  operationId: "replayWebhook",
  tags,
  summary: "Deliver again every stored event of a time range that this subscription matches",
  description:
    "Each event becomes a new delivery of the same event: same `webhook-id`, so your receiver de-duplicates what it " +
    "already has. `from` and `to` are inclusive, compared with the events' `timestamp`; events are kept 30 days. " +
    "At most 10,000 events per call (more is 400: replay shorter ranges). An event an earlier replay still has " +
    "waiting for this subscription is left out (`alreadyWaiting`). A subscription has at most 10,000 deliveries " +
    "waiting at once: a replay that could pass that is refused whole (409) until they have gone out.",
  request: { params: IdParam, body: { required: true, ...json(ReplayBody) } },
  responses: {
    202: { description: "Queued", ...json(envelopeOf(ReplayResult)) },
    ...unknown,
    409: errorResponse("The subscription is disabled, or would have more than 10,000 deliveries waiting"),
  },
});

const rotateWebhookSecretRoute = defineRoute(admin, {
  method: "post",
  path: "/webhooks/{id}/rotate-secret",
  operationId: "rotateWebhookSecret",
  tags,
  summary: "Issue a new signing secret; the old one also signs for 24 hours",
  request: { params: IdParam },
  responses: {
    200: { description: "The subscription and its new secret", ...json(envelopeOf(WebhookWithSecret)) },
    ...unknown,
  },
});

const secretKey = (c: AppContext) => c.env.WEBHOOK_SECRET_KEY;
const guardUrl = (c: AppContext, url: string) => assertDeliverableUrl(url, urlGuardOptions(c.env));

export const webhookRoutes = createRouter()
  .openapi(listWebhooksRoute, async (c) =>
    ok(c, await listSubscriptions(c.var.tenantDb, c.req.valid("query"))),
  )
  .openapi(createWebhookRoute, async (c) => {
    const body = c.req.valid("json");
    await guardUrl(c, body.url);
    const { principal } = c.var;
    const creator = { type: principal.type, id: principal.id };
    const subscription = await createSubscription(c.var.tenantDb, secretKey(c), creator, body, auditActor(c));
    return created(c, subscription, `/api/v1/webhooks/${subscription.id}`);
  })
  .openapi(getWebhookRoute, async (c) =>
    ok(c, webhookRecord(await getSubscription(c.var.tenantDb, c.req.valid("param").id))),
  )
  .openapi(updateWebhookRoute, async (c) => {
    const body = c.req.valid("json");
    await guardUrl(c, body.url);
    return ok(
      c,
      await updateSubscription(c.env, c.var.tenantDb, c.req.valid("param").id, body, auditActor(c)),
    );
  })
  .openapi(deleteWebhookRoute, async (c) =>
    ok(c, await deleteSubscription(c.var.tenantDb, c.req.valid("param").id, auditActor(c))),
  )
  .openapi(testWebhookRoute, async (c) =>
    accepted(c, await sendTestEvent(c.env, c.executionCtx, c.var.tenantDb, c.req.valid("param").id)),
  )
  .openapi(listWebhookDeliveriesRoute, async (c) =>
    ok(c, await listDeliveries(c.var.tenantDb, c.req.valid("param").id, c.req.valid("query"))),
  )
  .openapi(retryWebhookDeliveryRoute, async (c) => {
    const { id, deliveryId } = c.req.valid("param");
    return accepted(c, await retryDelivery(c.env, c.executionCtx, c.var.tenantDb, id, deliveryId));
  })
  .openapi(replayWebhookRoute, async (c) =>
    accepted(c, await replayEvents(c.env, c.var.tenantDb, c.req.valid("param").id, c.req.valid("json"))),
  )
  .openapi(rotateWebhookSecretRoute, async (c) =>
    ok(c, await rotateSecret(c.var.tenantDb, secretKey(c), c.req.valid("param").id, auditActor(c))),
  );
