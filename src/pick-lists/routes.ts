import { actorOf } from "../auth/principal";
import { created, envelopeOf, ok } from "../http/envelope";
import { pagedOf } from "../http/pagination";
import { IdParam } from "../http/params";
import { createRouter } from "../http/router";
import { defineRoute, errorResponse, jsonContent as json } from "../pipeline/route";
import { PickListRecord, PickListSummary } from "../record-schemas/pick-list";
import { cancelPickList } from "./cancel-pick-list";
import { confirmPick } from "./confirm-pick";
import { createPickList } from "./create-pick-list";
import { listPickLists } from "./list-pick-lists";
import { getPickList } from "./read-pick-list";
import { recordShort } from "./record-short";
import { CreatePickListBody, ListPickListsQuery, PickBody, ShortBody } from "./schemas";

const read = { scope: "read:orders" } as const;
const write = { scope: "write:orders" } as const;
const tags = ["Pick lists"];
const one = (description: string) => ({ description, ...json(envelopeOf(PickListRecord)) });
const unknown = { 404: errorResponse("Unknown pick list") };

const listPickListsRoute = defineRoute(read, {
  method: "get",
  path: "/pick-lists",
  operationId: "listPickLists",
  tags,
  summary: "List pick lists, newest first (filters: status, warehouse, an order on them)",
  request: { query: ListPickListsQuery },
  responses: { 200: { description: "A page of pick lists", ...json(envelopeOf(pagedOf(PickListSummary))) } },
});
const createPickListRoute = defineRoute(write, {
  method: "post",
  path: "/pick-lists",
  operationId: "createPickList",
  tags,
  summary:
    "Create a pick list for one order or a wave of up to 200 (lines in walking order; orders move to picking)",
  request: { body: { required: true, ...json(CreatePickListBody) } },
  responses: {
    201: one("The new pick list"),
    404: errorResponse("Unknown warehouse or order (each named)"),
    409: errorResponse("An order that cannot be picked (each named), or one changed meanwhile"),
  },
});
const getPickListRoute = defineRoute(read, {
  method: "get",
  path: "/pick-lists/{id}",
  operationId: "getPickList",
  tags,
  summary: "Get a pick list with its lines",
  request: { params: IdParam },
  responses: { 200: one("The pick list"), ...unknown },
});
const cancelPickListRoute = defineRoute(write, {
  method: "post",
  path: "/pick-lists/{id}/cancel",
  operationId: "cancelPickList",
  tags,
  summary: "Cancel a pick list (releases nothing: the reservations stay with the orders)",
  request: { params: IdParam },
  responses: {
    200: one("The cancelled pick list"),
    ...unknown,
    409: errorResponse("Completed or cancelled"),
  },
});

const pickRoute = defineRoute(write, {
  method: "post",
  path: "/pick-lists/{id}/picks",
  operationId: "confirmPick",
  tags,
  summary:
    "Confirm a scanned pick: the units move from the bin to the packing location with their reservation",
  description:
    "Send what was scanned: the location (id or code), the product (id, SKU or barcode), the lot and serial numbers, the tote. A scan that does not match the line (or, without `lineId`, any open line) is a 409 naming what was expected; more than the line asks is a 409.",
  request: { params: IdParam, body: { required: true, ...json(PickBody) } },
  responses: {
    200: one("The pick list after the pick"),
    ...unknown,
    409: errorResponse(
      "Wrong location, product or lot (naming what was expected), more than the line asks, or the list or order changed",
    ),
  },
});
const shortRoute = defineRoute(write, {
  method: "post",
  path: "/pick-lists/{id}/shorts",
  operationId: "recordShort",
  tags,
  summary: "Record a short pick: the shortfall's reservation is released and the order line backordered",
  request: { params: IdParam, body: { required: true, ...json(ShortBody) } },
  responses: {
    200: one("The pick list after the short"),
    ...unknown,
    409: errorResponse("More than the line has left, a line that is done, or the list or order changed"),
  },
});

export const pickListRoutes = createRouter()
  .openapi(listPickListsRoute, async (c) => ok(c, await listPickLists(c.var.tenantDb, c.req.valid("query"))))
  .openapi(createPickListRoute, async (c) => {
    const pickList = await createPickList(c.var.tenantDb, actorOf(c), c.req.valid("json"));
    return created(c, pickList, `/api/v1/pick-lists/${pickList.id}`);
  })
  .openapi(getPickListRoute, async (c) => ok(c, await getPickList(c.var.tenantDb, c.req.valid("param").id)))
  .openapi(cancelPickListRoute, async (c) =>
    ok(c, await cancelPickList(c.var.tenantDb, c.req.valid("param").id)),
  )
  .openapi(pickRoute, async (c) =>
    ok(c, await confirmPick(c.var.tenantDb, actorOf(c), c.req.valid("param").id, c.req.valid("json"))),
  )
  .openapi(shortRoute, async (c) =>
    ok(c, await recordShort(c.var.tenantDb, actorOf(c), c.req.valid("param").id, c.req.valid("json"))),
  );
