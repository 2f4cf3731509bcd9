import { envelopeOf, ok } from "../http/envelope";
import { pagedOf } from "../http/pagination";
import { IdParam } from "../http/params";
import { createRouter } from "../http/router";
import { defineRoute, errorResponse, jsonContent as json } from "../pipeline/route";
import { ShipmentRecord } from "../shipment-core/schemas";
import { dispatchShipment } from "./dispatch-shipment";
import { listShipments } from "./list-shipments";
import { getShipment } from "./read-shipment";
import { ListShipmentsQuery } from "./schemas";

const read = { scope: "read:orders" } as const;
const write = { scope: "write:orders" } as const;
const tags = ["Shipments"];
const one = (description: string) => ({ description, ...json(envelopeOf(ShipmentRecord)) });
const unknown = { 404: errorResponse("Unknown shipment") };

const listShipmentsRoute = defineRoute(read, {
  method: "get",
  path: "/shipments",
  operationId: "listShipments",
  tags,
  summary: "List shipments, newest first (filters: status, carrier, since)",
  request: { query: ListShipmentsQuery },
  responses: { 200: { description: "A page of shipments", ...json(envelopeOf(pagedOf(ShipmentRecord))) } },
});
const getShipmentRoute = defineRoute(read, {
  method: "get",
  path: "/shipments/{id}",
  operationId: "getShipment",
  tags,
  summary: "Get a shipment with its packages",
  request: { params: IdParam },
  responses: { 200: one("The shipment"), ...unknown },
});
const dispatchShipmentRoute = defineRoute(write, {
  method: "post",
  path: "/shipments/{id}/dispatch",
  operationId: "dispatchShipment",
  tags,
  summary: "Mark a shipment handed to the carrier (event shipment.dispatched with every tracking number)",
  request: { params: IdParam },
  responses: {
    200: one("The dispatched shipment"),
    ...unknown,
    409: errorResponse("Already dispatched or cancelled"),
  },
});

export const shipmentRoutes = createRouter()
  .openapi(listShipmentsRoute, async (c) => ok(c, await listShipments(c.var.tenantDb, c.req.valid("query"))))
  .openapi(getShipmentRoute, async (c) => ok(c, await getShipment(c.var.tenantDb, c.req.valid("param").id)))
  .openapi(dispatchShipmentRoute, async (c) =>
    ok(c, await dispatchShipment(c.var.tenantDb, c.req.valid("param").id)),
  );
