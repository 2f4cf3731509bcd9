import { confirmedKeyView } from "../auth/key-views";
import { actorOf } from "../auth/principal";
import { created, envelopeOf, ok } from "../http/envelope";
import { pagedOf } from "../http/pagination";
import { IdParam } from "../http/params";
import { createRouter } from "../http/router";
import { readOrder } from "../order-core/read-order";
import { orderRecord, reservedPerLine } from "../order-core/records";
import { OrderRecord, OrderSummary } from "../order-core/schemas";
import { defineRoute, errorResponse, jsonContent as json } from "../pipeline/route";
import { createShipment } from "../shipment-core/create-shipment";
import { CreateShipmentBody, ShipmentRecord } from "../shipment-core/schemas";
import { changeStatus } from "./change-status";
import { createPurchaseOrder } from "./create-purchase-order";
import { createSalesOrder } from "./create-sales-order";
import { listOrders } from "./list-orders";
import { listOrderShipments } from "./order-shipments";
import { receivePurchaseOrder } from "./receive";
import {
  CreatePurchaseOrderBody,
  CreateSalesOrderBody,
  ListOrdersQuery,
  ReceiveBody,
  UpdateStatusBody,
} from "./schemas";

const read = { scope: "read:orders" } as const;
const write = { scope: "write:orders" } as const;
const tags = ["Orders"];

const listOrdersRoute = defineRoute(read, {
  method: "get",
  path: "/orders",
  operationId: "listOrders",
  tags,
  summary: "List orders (sales and purchase)",
  request: { query: ListOrdersQuery },
  responses: {
    200: { description: "A page of orders, newest first", ...json(envelopeOf(pagedOf(OrderSummary))) },
    404: errorResponse("Unknown merchant (merchantId)"),
  },
});

const getOrderRoute = defineRoute(read, {
  method: "get",
  path: "/orders/{id}",
  operationId: "getOrder",
  tags,
  summary: "Get an order with its lines, totals, status history and allowed transitions",
  request: { params: IdParam },
  responses: {
    200: { description: "The order", ...json(envelopeOf(OrderRecord)) },
    404: errorResponse("Unknown order"),
  },
});

const createSalesOrderRoute = defineRoute(
  write,
  {
    method: "post",
    path: "/orders/sales",
    operationId: "createSalesOrder",
    tags,
    summary: "Create a sales order, reserving stock for every line (all lines or none)",
    description:
      "Stock is reserved from the given warehouse's locations, else from any location of the tenant. " +
      "Short stock is 409 with one message per short line, naming what is available.",
    request: { body: { required: true, ...json(CreateSalesOrderBody) } },
    responses: {
      201: { description: "The created order (status pending)", ...json(envelopeOf(OrderRecord)) },
      404: errorResponse("Unknown product or warehouse"),
      409: errorResponse("Insufficient stock, or an Inactive product"),
    },
  },
  // Its reads run alongside the key's lookup; its write waits for it (docs/decisions/orders.md).
  { gatedWrites: true },
);

const createPurchaseOrderRoute = defineRoute(write, {
  method: "post",
  path: "/orders/purchase",
  operationId: "createPurchaseOrder",
  tags,
  summary: "Create a purchase order (status draft)",
  request: { body: { required: true, ...json(CreatePurchaseOrderBody) } },
  responses: {
    201: { description: "The created order", ...json(envelopeOf(OrderRecord)) },
    404: errorResponse("Unknown product or warehouse"),
    409: errorResponse("An Inactive product"),
  },
});

const updateOrderStatusRoute = defineRoute(
  write,
  {
    method: "patch",
    path: "/orders/{id}/status",
    operationId: "updateOrderStatus",
    tags,
    summary: "Move an order to another status",
    description:
      "Sales: pending -> confirmed -> picking -> packed -> shipped -> delivered (forward skips allowed), " +
      "cancelled before shipped. Shipping consumes the reserved stock; cancelling releases it. " +
      "Purchase: draft -> ordered, cancelled before any receipt. Anything else is 409 naming the allowed next statuses.",
    request: { params: IdParam, body: { required: true, ...json(UpdateStatusBody) } },
    responses: {
      200: { description: "The order after the change", ...json(envelopeOf(OrderRecord)) },
      404: errorResponse("Unknown order"),
      409: errorResponse("Illegal transition, or the order was changed concurrently"),
    },
  },
  // Reads the order alongside the key's lookup; writes after it (docs/decisions/orders.md).
  { gatedWrites: true },
);

const receivePurchaseOrderRoute = defineRoute(write, {
  method: "post",
  path: "/orders/{id}/receive",
  operationId: "receivePurchaseOrder",
  tags,
  summary: "Receive stock against a purchase order's lines",
  description: "Adds stock at the given locations and moves the order to partially_received or received.",
  request: { params: IdParam, body: { required: true, ...json(ReceiveBody) } },
  responses: {
    200: { description: "The order after the receipt", ...json(envelopeOf(OrderRecord)) },
    404: errorResponse("Unknown order, line or location"),
    409: errorResponse("Not receivable in its status, or receiving more than was ordered"),
  },
});

const createShipmentRoute = defineRoute(write, {
  method: "post",
  path: "/orders/{id}/shipments",
  operationId: "createShipment",
  tags,
  summary:
    "Ship part or all of a sales order as packages (each gets an SSCC); the order becomes partially_shipped or shipped",
  description:
    "Units come from the packing location first (picked units), then from the bins the order holds (an order never picked). " +
    "Stock leaves with ledger reason `shipment`. More than a line has open is 409.",
  request: { params: IdParam, body: { required: true, ...json(CreateShipmentBody) } },
  responses: {
    201: { description: "The shipment (packed)", ...json(envelopeOf(ShipmentRecord)) },
    404: errorResponse("Unknown order, or an order line not on it (each named)"),
    409: errorResponse(
      "Not shippable in its status, more than a line has open, or the order changed concurrently",
    ),
  },
});

const listOrderShipmentsRoute = defineRoute(read, {
  method: "get",
  path: "/orders/{id}/shipments",
  operationId: "listOrderShipments",
  tags,
  summary: "An order's shipments, oldest first, with their packages",
  request: { params: IdParam },
  responses: {
    200: { description: "The order's shipments", ...json(envelopeOf(ShipmentRecord.array())) },
    404: errorResponse("Unknown order"),
  },
});

export const orderRoutes = createRouter()
  .openapi(listOrdersRoute, async (c) => ok(c, await listOrders(c.var.tenantDb, c.req.valid("query"))))
  .openapi(getOrderRoute, async (c) => {
    const order = await readOrder(c.var.tenantDb, c.req.valid("param").id, { shown: true });
    return ok(
      c,
      orderRecord(order.row, order.lines, order.history, {
        reserved: reservedPerLine(order.reservations),
        picked: order.picked,
        products: order.products,
      }),
    );
  })
  .openapi(createSalesOrderRoute, async (c) => {
    const order = await createSalesOrder(c.var.tenantDb, actorOf(c), c.req.valid("json"), () =>
      confirmedKeyView(c.var.keyView),
    );
    return created(c, order, `/api/v1/orders/${order.id}`);
  })
  .openapi(createPurchaseOrderRoute, async (c) => {
    const order = await createPurchaseOrder(c.var.tenantDb, actorOf(c), c.req.valid("json"));
    return created(c, order, `/api/v1/orders/${order.id}`);
  })
  .openapi(updateOrderStatusRoute, async (c) => {
    const { id } = c.req.valid("param");
    const confirmed = () => confirmedKeyView(c.var.keyView);
    return ok(c, await changeStatus(c.var.tenantDb, actorOf(c), id, c.req.valid("json"), confirmed));
  })
  .openapi(receivePurchaseOrderRoute, async (c) => {
    const { id } = c.req.valid("param");
    return ok(c, await receivePurchaseOrder(c.var.tenantDb, actorOf(c), id, c.req.valid("json")));
  })
  .openapi(createShipmentRoute, async (c) => {
    const shipment = await createShipment(
      c.var.tenantDb,
      actorOf(c),
      c.req.valid("param").id,
      c.req.valid("json"),
    );
    return created(c, shipment, `/api/v1/shipments/${shipment.id}`);
  })
  .openapi(listOrderShipmentsRoute, async (c) =>
    ok(c, await listOrderShipments(c.var.tenantDb, c.req.valid("param").id)),
  );
