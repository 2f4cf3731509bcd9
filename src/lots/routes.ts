import { envelopeOf, ok } from "../http/envelope";
import { pagedOf } from "../http/pagination";
import { IdParam } from "../http/params";
import { createRouter } from "../http/router";
import { defineRoute, errorResponse, jsonContent as json } from "../pipeline/route";
import { listLots } from "./list-lots";
import { readLot } from "./read-lot";
import { LotDetail, LotRecord, LotsQuery, LotTrace } from "./schemas";
import { traceLot } from "./trace-lot";

const read = { scope: "read:inventory" } as const;
const tags = ["Lots"];

const listLotsRoute = defineRoute(read, {
  method: "get",
  path: "/lots",
  operationId: "listLots",
  tags,
  summary: "Lots, soonest expiry first (filter by product, expiry, expired)",
  request: { query: LotsQuery },
  responses: { 200: { description: "A page of lots", ...json(envelopeOf(pagedOf(LotRecord))) } },
});

const getLotRoute = defineRoute(read, {
  method: "get",
  path: "/lots/{id}",
  operationId: "getLot",
  tags,
  summary: "A lot with its stock per location",
  request: { params: IdParam },
  responses: {
    200: { description: "The lot", ...json(envelopeOf(LotDetail)) },
    404: errorResponse("Unknown lot"),
  },
});

const traceLotRoute = defineRoute(read, {
  method: "get",
  path: "/lots/{id}/trace",
  operationId: "traceLot",
  tags,
  summary: "Where a lot came from and where it went: every movement and order that touched it (recalls)",
  request: { params: IdParam },
  responses: {
    200: { description: "The lot's movements and open orders", ...json(envelopeOf(LotTrace)) },
    404: errorResponse("Unknown lot"),
  },
});

export const lotRoutes = createRouter()
  .openapi(listLotsRoute, async (c) => ok(c, await listLots(c.var.tenantDb, c.req.valid("query"))))
  .openapi(getLotRoute, async (c) => ok(c, await readLot(c.var.tenantDb, c.req.valid("param").id)))
  .openapi(traceLotRoute, async (c) => ok(c, await traceLot(c.var.tenantDb, c.req.valid("param").id)));
