import { accountableUser } from "../auth/principal";
import { assertRequestMerchant } from "../db/merchant-named";
import { created, envelopeOf, ok } from "../http/envelope";
import { pagedOf } from "../http/pagination";
import { IdParam } from "../http/params";
import { createRouter } from "../http/router";
import { auditActor } from "../pipeline/audit-actor";
import { defineRoute, errorResponse, jsonContent as json } from "../pipeline/route";
import { createApiKey } from "./create-api-key";
import { listApiKeys } from "./list-api-keys";
import { revokeApiKey } from "./revoke-api-key";
import { ApiKeyRecord, CreateApiKeyBody, CreatedApiKey, ListApiKeysQuery } from "./schemas";

const admin = { scope: "admin" } as const;
const tags = ["API keys"];

const listApiKeysRoute = defineRoute(admin, {
  method: "get",
  path: "/api-keys",
  operationId: "listApiKeys",
  tags,
  summary: "List the tenant's API keys (never the keys themselves)",
  request: { query: ListApiKeysQuery },
  responses: { 200: { description: "A page of keys", ...json(envelopeOf(pagedOf(ApiKeyRecord))) } },
});

const createApiKeyRoute = defineRoute(admin, {
  method: "post",
  path: "/api-keys",
  operationId: "createApiKey",
  tags,
  summary: "Create an API key with scopes, an optional IP allow list and an optional expiry",
  description:
    "The plain key is in this response only; store it in a secret manager. A key made with a key is never " +
    "broader than that key: without `allowedIps` or `expiresAt` it takes the maker's, and wider ones are 403.",
  request: { body: { required: true, ...json(CreateApiKeyBody) } },
  responses: {
    201: { description: "The new key, shown once", ...json(envelopeOf(CreatedApiKey)) },
    404: errorResponse("Unknown merchant"),
  },
});

const revokeApiKeyRoute = defineRoute(admin, {
  method: "delete",
  path: "/api-keys/{id}",
  operationId: "revokeApiKey",
  tags,
  summary: "Revoke an API key (effective on its next request)",
  description: "The invitations the key sent that are still pending are revoked with it.",
  request: { params: IdParam },
  responses: {
    200: { description: "The revoked key", ...json(envelopeOf(ApiKeyRecord)) },
    404: errorResponse("Unknown API key"),
  },
});

export const apiKeyRoutes = createRouter()
  .openapi(listApiKeysRoute, async (c) => ok(c, await listApiKeys(c.var.platformScope, c.req.valid("query"))))
  .openapi(createApiKeyRoute, async (c) => {
    // A key made with a key belongs to that key's creator, so its rights follow that person's role too.
    const { principal } = c.var;
    const creator = {
      id: accountableUser(principal),
      scopes: c.var.scopes,
      merchantId: c.var.merchantId ?? null,
      ...(principal.type === "api_key" ? { key: principal.id } : {}),
    };
    const input = c.req.valid("json");
    if (input.merchantId) await assertRequestMerchant(c, input.merchantId);
    const key = await createApiKey(c.var.platformScope, c.env.ENVIRONMENT, creator, input, auditActor(c));
    return created(c, key, `/api/v1/api-keys/${key.id}`);
  })
  .openapi(revokeApiKeyRoute, async (c) =>
    ok(c, await revokeApiKey(c.var.platformScope, c.req.valid("param").id, auditActor(c))),
  );
