import { z } from "@hono/zod-openapi";
import { actorOf } from "../auth/principal";
import { created, envelopeOf, ok } from "../http/envelope";
import { pagedOf } from "../http/pagination";
import { createRouter } from "../http/router";
import { defineRoute, errorResponse, jsonContent as json } from "../pipeline/route";
import { KitStockLevelRecord, SetLevelBody } from "../stock";

import { MovementRecord, StockLevelRecord } from "../stock/schemas";
import { adjustStock } from "./adjustments";
import { adjustStockBatch } from "./batch-adjustments";
import {
  AdjustmentBatchBody,
  BatchResult,
  LevelsBatchBody,
  MAX_BATCH_LINES,
  SetLevelResult,
} from "./batch-schemas";
import { setStockLevels } from "./batch-set-levels";
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
import { setStockLevel } from "./set-level";
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
    "(one index probe per level: the cost grows with the page, not with the ledger). A kit holds no stock: with a " +
    "kit's `productId`, each item is a `KitStockLevel`, the complete kits its components' available stock makes in " +
    "one warehouse. With `packaging`, each level also shows whole packs and the remainder (`packs`).",
  request: { query: StockQuery },
  responses: {
    200: {
      description:
        "A page of stock levels (StockLevelAsOf items with asOf; KitStockLevel items, one per warehouse, when productId is a kit)",
      ...json(envelopeOf(pagedOf(z.union([StockLevelRecord, StockLevelAsOfRecord, KitStockLevelRecord])))),
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

const batchResponses = (what: string) => ({
  200: {
    description:
      `Each ${what}'s result in request order. Atomic: every one written (201) or already as asked (200). ` +
      "Per line: what became of each, the good ones written.",
    ...json(envelopeOf(BatchResult)),
  },
  400: errorResponse(`Validation failed; or (atomic) a ${what} does not fit its product (each one listed)`),
  404: errorResponse(
    `Atomic: a ${what} names an unknown product or location (each one listed); nothing was written`,
  ),
  409: errorResponse(
    `Atomic: the stock does not allow a ${what} (each one listed, with what is available); nothing was written`,
  ),
});

const adjustStockBatchRoute = defineRoute(write, {
  method: "post",
  path: "/inventory/adjustments/batch",
  operationId: "adjustStockBatch",
  tags,
  summary: `Up to ${MAX_BATCH_LINES} adjustments keyed by SKU and location code (or ids): all or none, or each on its own`,
  description:
    "The same ledger rows and events as single adjustments; one Idempotency-Key covers the whole batch. A line names " +
    "one stock level: two lines of the same level (or the same serial number) are refused.",
  request: { body: { required: true, ...json(AdjustmentBatchBody) } },
  responses: batchResponses("line"),
});

const setStockLevelRoute = defineRoute(write, {
  method: "put",
  path: "/inventory/levels",
  operationId: "setStockLevel",
  tags,
  summary: "Set a stock level's on hand (compare-and-swap with expectedOnHand)",
  description:
    "The difference becomes one ledger row (reason `set`) and an `inventory.adjusted` event. With `expectedOnHand`, " +
    "a level whose on hand is not exactly that is a 409 stating the current value, and nothing changes. Setting " +
    "below what is reserved is a 409.",
  request: { body: { required: true, ...json(SetLevelBody) } },
  responses: {
    200: { description: "The ledger row and the level", ...json(envelopeOf(SetLevelResult)) },
    404: errorResponse("Unknown product or location (the message names which)"),
    409: errorResponse(
      "expectedOnHand is not the current on hand (the message states it), below what is reserved, or an inactive location",
    ),
  },
});

const setStockLevelsRoute = defineRoute(write, {
  method: "post",
  path: "/inventory/levels/batch",
  operationId: "setStockLevels",
  tags,
  summary: `Set up to ${MAX_BATCH_LINES} stock levels (compare-and-swap each): all or none, or each on its own`,
  description: "Each level as `PUT /inventory/levels` sets it; one Idempotency-Key covers the whole batch.",
  request: { body: { required: true, ...json(LevelsBatchBody) } },
  responses: batchResponses("level"),
});

export const inventoryRoutes = createRouter()
  .openapi(listStockRoute, async (c) => ok(c, await listStock(c.var.tenantDb, c.req.valid("query"))))
  .openapi(listMovementsRoute, async (c) => ok(c, await listMovements(c.var.tenantDb, c.req.valid("query"))))
  .openapi(adjustStockRoute, async (c) =>
    created(c, await adjustStock(c.var.tenantDb, actorOf(c), c.req.valid("json"))),
  )
  .openapi(transferStockRoute, async (c) =>
    created(c, await transferStock(c.var.tenantDb, actorOf(c), c.req.valid("json"))),
  )
  .openapi(adjustStockBatchRoute, async (c) =>
    ok(c, await adjustStockBatch(c.var.tenantDb, actorOf(c), c.req.valid("json"))),
  )
  .openapi(setStockLevelRoute, async (c) =>
    ok(c, await setStockLevel(c.var.tenantDb, actorOf(c), c.req.valid("json"))),
  )
  .openapi(setStockLevelsRoute, async (c) =>
    ok(c, await setStockLevels(c.var.tenantDb, actorOf(c), c.req.valid("json"))),
  );
