import { created, envelopeOf, ok } from "../http/envelope";
import { pagedOf } from "../http/pagination";
import { IdParam } from "../http/params";
import { createRouter } from "../http/router";
import { credentialsActingFor } from "../identity/merchant-credentials";
import { auditActor } from "../pipeline/audit-actor";
import { defineRoute, errorResponse, jsonContent as json } from "../pipeline/route";
import { createMerchant } from "./create-merchant";
import { deleteMerchant } from "./delete-merchant";
import { listMerchants } from "./list-merchants";
import { getMerchant } from "./read-merchant";
import { ListMerchantsQuery, MerchantBody, MerchantRecord } from "./schemas";
import { updateMerchant } from "./update-merchant";

// Reading merchants is part of reading the catalog; creating and changing them decides who sees which goods.
const read = { scope: "read:products" } as const;
const write = { scope: "admin" } as const;
const tags = ["Merchants"];
const one = (description: string) => ({ description, ...json(envelopeOf(MerchantRecord)) });
const unknown = { 404: errorResponse("Unknown merchant") };

const listMerchantsRoute = defineRoute(read, {
  method: "get",
  path: "/merchants",
  operationId: "listMerchants",
  tags,
  summary: "List merchants (the brands whose goods the tenant stores)",
  request: { query: ListMerchantsQuery },
  responses: { 200: { description: "A page of merchants", ...json(envelopeOf(pagedOf(MerchantRecord))) } },
});
const createMerchantRoute = defineRoute(write, {
  method: "post",
  path: "/merchants",
  operationId: "createMerchant",
  tags,
  summary: "Create a merchant (code unique per tenant)",
  request: { body: { required: true, ...json(MerchantBody) } },
  responses: { 201: one("The new merchant"), 409: errorResponse("Code already used") },
});
const getMerchantRoute = defineRoute(read, {
  method: "get",
  path: "/merchants/{id}",
  operationId: "getMerchant",
  tags,
  summary: "Get a merchant",
  request: { params: IdParam },
  responses: { 200: one("The merchant"), ...unknown },
});
const updateMerchantRoute = defineRoute(write, {
  method: "put",
  path: "/merchants/{id}",
  operationId: "updateMerchant",
  tags,
  summary: "Replace a merchant's code and name",
  request: { params: IdParam, body: { required: true, ...json(MerchantBody) } },
  responses: { 200: one("The merchant"), ...unknown, 409: errorResponse("Code already used") },
});
const deleteMerchantRoute = defineRoute(write, {
  method: "delete",
  path: "/merchants/{id}",
  operationId: "deleteMerchant",
  tags,
  summary: "Delete a merchant without products, open orders or credentials acting for it",
  request: { params: IdParam },
  responses: {
    200: one("The deleted merchant"),
    ...unknown,
    409: errorResponse("It has products or open orders, or keys, members or invitations act for it"),
  },
});

export const merchantRoutes = createRouter()
  .openapi(listMerchantsRoute, async (c) => ok(c, await listMerchants(c.var.tenantDb, c.req.valid("query"))))
  .openapi(createMerchantRoute, async (c) => {
    const merchant = await createMerchant(c.var.tenantDb, c.req.valid("json"), auditActor(c));
    return created(c, merchant, `/api/v1/merchants/${merchant.id}`);
  })
  .openapi(getMerchantRoute, async (c) => ok(c, await getMerchant(c.var.tenantDb, c.req.valid("param").id)))
  .openapi(updateMerchantRoute, async (c) =>
    ok(c, await updateMerchant(c.var.tenantDb, c.req.valid("param").id, c.req.valid("json"), auditActor(c))),
  )
  .openapi(deleteMerchantRoute, async (c) => {
    const { id } = c.req.valid("param");
    return ok(
      c,
      await deleteMerchant(
        c.var.tenantDb,
        id,
        () => credentialsActingFor(c.var.platformScope, id),
        auditActor(c),
      ),
    );
  });
