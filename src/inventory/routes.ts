import { z } from "@hono/zod-openapi";
import { actorOf } from "../auth/principal";
import { created, envelopeOf, ok } from "../http/envelope";
import { pagedOf } from "../http/pagination";
import { createRouter } from "../http/router";
import { defineRoute, errorResponse, jsonContent as json } from "../pipeline/route";
import { MovementRecord, StockLevelRecord } from "../stock/schemas";
import { adjustStock } from "./adjustments";
import { listMovements } from "./movements";
import {
  AdjustmentBody,
  AdjustmentResult,
  MovementsQuery,
  StockLevelAsOfRecord,
  StockQuery,
  TransferBody,
  TransferResult,
} from "./schemas";
import { listStock } from "./stock-levels";
import { transferStock } from "./transfers";

const read = { scope: "read:inventory" } as const;
const write = { scope: "write:inventory" } as const;
const tags = ["Inventory"];

const listStockRoute = defineRoute(read, {
  method: "get",
  path: "/inventory/stock",
  operationId: "listStock",
  tags,
  summary: "Stock levels (onHand, reserved, available) per product and location, now or as of an instant",
  description:
    "With `asOf`, each item is a `StockLevelAsOf`: the level's `onHand` at that instant, computed from the ledger " +
    "(one index probe per level: the cost grows with the page, not with the ledger).",
  request: { query: StockQuery },
  responses: {
    200: {
      description: "A page of stock levels (StockLevelAsOf items with asOf)",
      ...json(envelopeOf(pagedOf(z.union([StockLevelRecord, StockLevelAsOfRecord])))),
    },
  },
});

const listMovementsRoute = defineRoute(read, {
  method: "get",
  path: "/inventory/movements",
  operationId: "listMovements",
  tags,
  summary: "The stock ledger, newest first (immutable; per product and location it sums to onHand)",
  request: { query: MovementsQuery },
  responses: { 200: { description: "A page of movements", ...json(envelopeOf(pagedOf(MovementRecord))) } },
});

const adjustStockRoute = defineRoute(write, {
  method: "post",
  path: "/inventory/adjustments",
  operationId: "adjustStock",
  tags,
  summary: "Add or remove stock at a location, with a reason",
  request: { body: { required: true, ...json(AdjustmentBody) } },
  responses: {
    201: {
      description: "The ledger row and the resulting stock level",
      ...json(envelopeOf(AdjustmentResult)),
    },
    404: errorResponse("Unknown product or location (the message names which)"),
    409: errorResponse(
      "Removing more than is available (the message states what is), or an inactive location",
    ),
  },
});

const transferStockRoute = defineRoute(write, {
  method: "post",
  path: "/inventory/transfers",
  operationId: "transferStock",
  tags,
  summary: "Move stock between two locations atomically",
  request: { body: { required: true, ...json(TransferBody) } },
  responses: {
    201: {
      description: "The transfer id and both resulting stock levels",
      ...json(envelopeOf(TransferResult)),
    },
    404: errorResponse("Unknown product or location (the message names which)"),
    409: errorResponse("Not enough available at the source, or an inactive destination"),
  },
});

export const inventoryRoutes = createRouter()
  .openapi(listStockRoute, async (c) => ok(c, await listStock(c.var.tenantDb, c.req.valid("query"))))
  .openapi(listMovementsRoute, async (c) => ok(c, await listMovements(c.var.tenantDb, c.req.valid("query"))))
  .openapi(adjustStockRoute, async (c) =>
    created(c, await adjustStock(c.var.tenantDb, actorOf(c), c.req.valid("json"))),
  )
  .openapi(transferStockRoute, async (c) =>
    created(c, await transferStock(c.var.tenantDb, actorOf(c), c.req.valid("json"))),
  );
