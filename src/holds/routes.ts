import { created, envelopeOf, ok } from "../http/envelope";
import { pagedOf } from "../http/pagination";
import { IdParam } from "../http/params";
import { createRouter } from "../http/router";
import { defineRoute, errorResponse, jsonContent as json } from "../pipeline/route";
import { HoldRecord } from "../stock/schemas";
import { createHold } from "./create-hold";
import { getHold } from "./get-hold";
import { listHolds } from "./list-holds";
import { deleteHold } from "./release-hold";
import { CreateHoldBody, HoldsQuery } from "./schemas";

const read = { scope: "read:inventory" } as const;
const write = { scope: "write:inventory" } as const;
const tags = ["Inventory"];
const unknown = { 404: errorResponse("Unknown hold") };

const createHoldRoute = defineRoute(write, {
  method: "post",
  path: "/inventory/holds",
  operationId: "createHold",
  tags,
  summary: "Hold available stock for a cart or a quote, without an order",
  description:
    "The quantity counts in `reserved` like an order's reservation until the hold is released, expires " +
    "(`expiresAt`, at most 7 days ahead; its stock is back within 60 seconds) or a sales order line names " +
    "it in `holdId`. Emits `inventory.hold_created`.",
  request: { body: { required: true, ...json(CreateHoldBody) } },
  responses: {
    201: { description: "The hold and where its stock is reserved", ...json(envelopeOf(HoldRecord)) },
    404: errorResponse("Unknown product, location or warehouse (the message names which)"),
    409: errorResponse("Not enough available (the message states what is), or an inactive product"),
  },
});

const listHoldsRoute = defineRoute(read, {
  method: "get",
  path: "/inventory/holds",
  operationId: "listHolds",
  tags,
  summary: "Stock holds, newest first",
  request: { query: HoldsQuery },
  responses: { 200: { description: "A page of holds", ...json(envelopeOf(pagedOf(HoldRecord))) } },
});

const getHoldRoute = defineRoute(read, {
  method: "get",
  path: "/inventory/holds/{id}",
  operationId: "getHold",
  tags,
  summary: "Get a stock hold",
  request: { params: IdParam },
  responses: { 200: { description: "The hold", ...json(envelopeOf(HoldRecord)) }, ...unknown },
});

const releaseHoldRoute = defineRoute(write, {
  method: "delete",
  path: "/inventory/holds/{id}",
  operationId: "releaseHold",
  tags,
  summary: "Release a hold: its stock is available again",
  description: "Emits `inventory.hold_released` with reason `released`.",
  request: { params: IdParam },
  responses: {
    200: { description: "The released hold", ...json(envelopeOf(HoldRecord)) },
    ...unknown,
    409: errorResponse("The hold has already ended (released, expired or consumed)"),
  },
});

export const holdRoutes = createRouter()
  .openapi(createHoldRoute, async (c) => {
    const hold = await createHold(c.var.tenantDb, c.req.valid("json"));
    return created(c, hold, `/api/v1/inventory/holds/${hold.id}`);
  })
  .openapi(listHoldsRoute, async (c) => ok(c, await listHolds(c.var.tenantDb, c.req.valid("query"))))
  .openapi(getHoldRoute, async (c) => ok(c, await getHold(c.var.tenantDb, c.req.valid("param").id)))
  .openapi(releaseHoldRoute, async (c) => ok(c, await deleteHold(c.var.tenantDb, c.req.valid("param").id)));
