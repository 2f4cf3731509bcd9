import { actorOf } from "../auth/principal";
import { created, envelopeOf, ok } from "../http/envelope";
import { pagedOf } from "../http/pagination";
import { IdParam } from "../http/params";
import { createRouter } from "../http/router";
import { defineRoute, errorResponse, jsonContent as json } from "../pipeline/route";
import { ReturnRecord } from "../record-schemas/return";
import { changeReturnStatus } from "./change-status";
import { createReturn } from "./create-return";
import { listReturns } from "./list-returns";
import { receiveReturn } from "./receive-return";
import { getReturn } from "./records";
import { CreateReturnBody, ListReturnsQuery, ReturnReceiptBody, UpdateReturnStatusBody } from "./schemas";

const read = { scope: "read:orders" } as const;
const write = { scope: "write:orders" } as const;
const tags = ["Returns"];
const one = (description: string) => ({ description, ...json(envelopeOf(ReturnRecord)) });

const listReturnsRoute = defineRoute(read, {
  method: "get",
  path: "/returns",
  operationId: "listReturns",
  tags,
  summary: "List returns (RMAs), newest first (filters: status, orderId)",
  request: { query: ListReturnsQuery },
  responses: { 200: { description: "A page of returns", ...json(envelopeOf(pagedOf(ReturnRecord))) } },
});

const getReturnRoute = defineRoute(read, {
  method: "get",
  path: "/returns/{id}",
  operationId: "getReturn",
  tags,
  summary: "Get a return with its lines and receipts",
  request: { params: IdParam },
  responses: { 200: one("The return"), 404: errorResponse("Unknown return") },
});

const createReturnRoute = defineRoute(write, {
  method: "post",
  path: "/returns",
  operationId: "createReturn",
  tags,
  summary: "Request a return (RMA) of a sales order's shipped units; it gets a number RMA-000001 per tenant",
  description:
    "Each line returns at most what shipped on its order line (dispatched shipments) minus what other returns claim " +
    "(a closed, rejected or cancelled return claims only what it received); more is a 409 with the numbers. " +
    "The return starts `requested`; event return.created.",
  request: { body: { required: true, ...json(CreateReturnBody) } },
  responses: {
    201: one("The return (requested)"),
    404: errorResponse("Unknown order, or an order line not on it (each named)"),
    409: errorResponse("A purchase order, or more than shipped minus what other returns claim"),
  },
});

const updateReturnStatusRoute = defineRoute(write, {
  method: "patch",
  path: "/returns/{id}/status",
  operationId: "updateReturnStatus",
  tags,
  summary: "Authorize, reject, cancel or close a return",
  description:
    "requested -> authorized | rejected | cancelled; authorized -> cancelled (nothing received yet) or closed " +
    "(something received, the rest will not come); received -> closed (event return.closed). `received` is reached " +
    "by receipts only. Anything else is a 409 naming what is allowed.",
  request: { params: IdParam, body: { required: true, ...json(UpdateReturnStatusBody) } },
  responses: {
    200: one("The return after the change"),
    404: errorResponse("Unknown return"),
    409: errorResponse("Not allowed from its status, or changed concurrently"),
  },
});

const receiveReturnRoute = defineRoute(write, {
  method: "post",
  path: "/returns/{id}/receipts",
  operationId: "receiveReturn",
  tags,
  summary: "Receive goods of an authorized return: restock, quarantine or scrap each line",
  description:
    "restock adds stock at a sellable location (ledger reason `return_restock`), quarantine at a non-sellable one " +
    "(`return_quarantine`), scrap books the arrival and its write-off (`return_received`, `return_scrap`: no stock). " +
    "Partial receipts are allowed; once every authorized unit is received the return is `received` (event return.received).",
  request: { params: IdParam, body: { required: true, ...json(ReturnReceiptBody) } },
  responses: {
    200: one("The return after the receipt"),
    404: errorResponse("Unknown return, return line or location (each named)"),
    409: errorResponse(
      "Not authorized, more than authorized, a location of the wrong kind, a lot or serial that did not ship on the line, or changed concurrently",
    ),
  },
});

export const returnRoutes = createRouter()
  .openapi(listReturnsRoute, async (c) => ok(c, await listReturns(c.var.tenantDb, c.req.valid("query"))))
  .openapi(getReturnRoute, async (c) => ok(c, await getReturn(c.var.tenantDb, c.req.valid("param").id)))
  .openapi(createReturnRoute, async (c) => {
    const record = await createReturn(c.var.tenantDb, actorOf(c), c.req.valid("json"));
    return created(c, record, `/api/v1/returns/${record.id}`);
  })
  .openapi(updateReturnStatusRoute, async (c) =>
    ok(c, await changeReturnStatus(c.var.tenantDb, c.req.valid("param").id, c.req.valid("json"))),
  )
  .openapi(receiveReturnRoute, async (c) =>
    ok(c, await receiveReturn(c.var.tenantDb, actorOf(c), c.req.valid("param").id, c.req.valid("json"))),
  );
