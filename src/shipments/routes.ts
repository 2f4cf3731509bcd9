import { z } from "@hono/zod-openapi";
import { actorOf } from "../auth/principal";
import { envelopeOf, ok } from "../http/envelope";
import { pagedOf } from "../http/pagination";
import { IdParam } from "../http/params";
import { createRouter } from "../http/router";
import { urlGuardOptions } from "../outbound/dns";
import { defineRoute, errorResponse, jsonContent as json } from "../pipeline/route";
import { ShipmentRecord } from "../shipment-core/schemas";
import { cancelShipment } from "./cancel-shipment";
import { dispatchShipment } from "./dispatch-shipment";
import { labelShipment } from "./label-shipment";
import { listShipments } from "./list-shipments";
import { readLabel } from "./read-label";
import { getShipment } from "./read-shipment";
import { LabelBody, ListShipmentsQuery, PackageParams } from "./schemas";

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

const cancelShipmentRoute = defineRoute(write, {
  method: "post",
  path: "/shipments/{id}/cancel",
  operationId: "cancelShipment",
  tags,
  summary:
    "Cancel a shipment before dispatch: its units go back to the packing location, reserved for the order",
  description:
    "The order lines' shippedQuantity shrink; the order is partially_shipped while another shipment still holds units, else packed. Event shipment.cancelled.",
  request: { params: IdParam },
  responses: {
    200: one("The cancelled shipment"),
    ...unknown,
    409: errorResponse("Dispatched or cancelled already, or changed meanwhile"),
  },
});
const labelShipmentRoute = defineRoute(write, {
  method: "post",
  path: "/shipments/{id}/label",
  operationId: "labelShipment",
  tags,
  summary:
    "Buy or record a label for every package through the carrier adapter; the shipment becomes labelled",
  description: [
    "The adapter is chosen by the shipment's `carrier`: a code configured under `PUT /settings/carriers/{code}` is labelled by that label service; any other carrier (or none) by the built-in `manual` carrier.",
    "",
    "**manual**: each package's tracking number comes from the body (`trackingNumbers`); the API renders a 4x6 inch ZPL label with it and the package's SSCC (GS1-128).",
    "",
    '**http**: send no `trackingNumbers` (400 otherwise). The API POSTs the label service a JSON body `{type: "shipment.label_requested", timestamp, data: {carrier, service, orderNumber, shipFrom: {name, address}, shipTo: the shippingAddress of the order (name, company, street, street2, city, zip, state, country, countryCode, phone, email; only street, city and zip are always there) | null, shipment}}` (`shipment` as `GET /shipments/{id}` shows it: packages with `id`, `sscc`, `weight`, `dimensions` and lines), signed the Standard Webhooks way with the carrier\'s secret (`webhook-id`, `webhook-timestamp`, `webhook-signature` headers). It must answer 2xx within 10 s with `{packages: [{packageId, trackingNumber, format: "pdf" | "zpl", label: <base64 of the label>}]}` naming every package of the shipment exactly once (at most 5 MiB). Anything else is a 502 quoting the service\'s status and the first 500 characters of its answer; nothing is stored and the shipment stays as it was.',
    "",
    "Labels are kept and served by GET /shipments/{id}/packages/{packageId}/label; labelling again replaces them.",
  ].join("\n"),
  request: { params: IdParam, body: { required: true, ...json(LabelBody) } },
  responses: {
    200: one("The labelled shipment, with each package's tracking number and label format"),
    404: errorResponse("Unknown shipment, or a package not in it (each named)"),
    409: errorResponse("Dispatched or cancelled, or changed meanwhile"),
    502: errorResponse(
      "The carrier's label service failed (no answer in 10 s, not 2xx, or not the contract): its status and an excerpt of its answer",
    ),
  },
});
const labelSchema = z.string().openapi({ format: "binary" });
const getLabelRoute = defineRoute(read, {
  method: "get",
  path: "/shipments/{id}/packages/{packageId}/label",
  operationId: "getPackageLabel",
  tags,
  summary: "A package's label as stored: ZPL or PDF, named by its SSCC",
  request: { params: PackageParams },
  responses: {
    200: {
      description: "The label",
      headers: {
        "Content-Disposition": {
          description: "`attachment` and the label's name: the package's SSCC and the format.",
          schema: { type: "string" as const, example: 'attachment; filename="002000000000000017.zpl"' },
        },
      },
      content: { "application/zpl": { schema: labelSchema }, "application/pdf": { schema: labelSchema } },
    },
    404: errorResponse("Unknown shipment or package, or no label yet"),
  },
});

export const shipmentRoutes = createRouter()
  .openapi(listShipmentsRoute, async (c) => ok(c, await listShipments(c.var.tenantDb, c.req.valid("query"))))
  .openapi(getShipmentRoute, async (c) => ok(c, await getShipment(c.var.tenantDb, c.req.valid("param").id)))
  .openapi(dispatchShipmentRoute, async (c) =>
    ok(c, await dispatchShipment(c.var.tenantDb, c.req.valid("param").id)),
  )
  .openapi(cancelShipmentRoute, async (c) =>
    ok(c, await cancelShipment(c.var.tenantDb, actorOf(c), c.req.valid("param").id)),
  )
  .openapi(labelShipmentRoute, async (c) =>
    ok(
      c,
      await labelShipment(
        c.var.tenantDb,
        { bucket: c.env.LABELS, secretKey: c.env.WEBHOOK_SECRET_KEY, guard: urlGuardOptions(c.env) },
        c.req.valid("param").id,
        c.req.valid("json"),
      ),
    ),
  )
  .openapi(getLabelRoute, async (c) => {
    const { id, packageId } = c.req.valid("param");
    return readLabel(c.var.tenantDb, c.env.LABELS, id, packageId);
  });
