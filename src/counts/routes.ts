import { actorOf } from "../auth/principal";
import { created, envelopeOf, ok } from "../http/envelope";
import { pagedOf } from "../http/pagination";
import { IdParam } from "../http/params";
import { createRouter } from "../http/router";
import { defineRoute, errorResponse, jsonContent as json } from "../pipeline/route";
import { CountRecord, CountSummary } from "../record-schemas/count";
import { approveCount, assertMayApprove } from "./approve";
import { EVENT_LINES_BYTES } from "./approved-event";
import { cancelCount } from "./cancel-count";
import { createCount } from "./create-count";
import { listCounts } from "./list-counts";
import { readCount } from "./read-count";
import { recordLines } from "./record-count-lines";
import { CountLinesBody, CountsQuery, CreateCountBody, MAX_COUNT_LINES, MAX_COUNT_SERIALS } from "./schemas";
import { submitCount } from "./submit-count";

const read = { scope: "read:inventory" } as const;
const write = { scope: "write:inventory" } as const;
const tags = ["Cycle counts"];
const countResponse = (description: string) => ({ description, ...json(envelopeOf(CountRecord)) });

const listInventoryCountsRoute = defineRoute(read, {
  method: "get",
  path: "/inventory/counts",
  operationId: "listInventoryCounts",
  tags,
  summary: "Cycle counts, newest first",
  request: { query: CountsQuery },
  responses: { 200: { description: "A page of counts", ...json(envelopeOf(pagedOf(CountSummary))) } },
});

const getInventoryCountRoute = defineRoute(read, {
  method: "get",
  path: "/inventory/counts/{id}",
  operationId: "getInventoryCount",
  tags,
  summary: "A cycle count with its lines and variances",
  request: { params: IdParam },
  responses: { 200: countResponse("The count"), 404: errorResponse("Unknown count") },
});

const createInventoryCountRoute = defineRoute(write, {
  method: "post",
  path: "/inventory/counts",
  operationId: "createInventoryCount",
  tags,
  summary: "Start a cycle count: snapshot on hand per product, location and lot in scope",
  request: { body: { required: true, ...json(CreateCountBody) } },
  responses: {
    201: countResponse("The open count with its snapshot"),
    400: errorResponse(
      `The scope holds more than a count does (${MAX_COUNT_LINES} lines or ${MAX_COUNT_SERIALS} serial numbers on hand): narrow it`,
    ),
    404: errorResponse("Unknown warehouse, location or product (the message names which)"),
    409: errorResponse("A merchant's credential names a scope holding none of its merchant's stock"),
  },
});

const recordInventoryCountLinesRoute = defineRoute(write, {
  method: "put",
  path: "/inventory/counts/{id}/lines",
  operationId: "recordInventoryCountLines",
  tags,
  summary: "Record counted quantities (partial batches; the last value of a line wins)",
  request: { params: IdParam, body: { required: true, ...json(CountLinesBody) } },
  responses: {
    200: countResponse("The count with its lines"),
    400: errorResponse(
      `Invalid lines, or lines that would take the count past ${MAX_COUNT_LINES} lines or ${MAX_COUNT_SERIALS} counted serial numbers`,
    ),
    404: errorResponse("Unknown count"),
    409: errorResponse("The count is no longer open, or an unknown lot"),
  },
});

const action = (
  path: string,
  operationId: string,
  summary: string,
  access: typeof write = write,
  description?: string,
) =>
  defineRoute(access, {
    method: "post",
    path: `/inventory/counts/{id}/${path}`,
    operationId,
    tags,
    summary,
    ...(description ? { description } : {}),
    request: { params: IdParam },
    responses: {
      200: countResponse("The count"),
      404: errorResponse("Unknown count"),
      409: errorResponse("The count's status does not allow it"),
    },
  });

const submitInventoryCountRoute = action(
  "submit",
  "submitInventoryCount",
  "Freeze the counted lines and their variances",
);
const approveInventoryCountRoute = action(
  "approve",
  "approveInventoryCount",
  "Write the variances as cycle_count adjustments in one atomic batch (admin scope or a manager's role; idempotent)",
  write,
  `Emits \`inventory.count_approved\`: the approved count with every line when they fit in ${EVENT_LINES_BYTES / 1024} KB ` +
    '(`linesIncluded: "all"`), otherwise only the lines whose approval changed stock, as many as fit ' +
    '(`linesIncluded: "changed"`); `hasMoreLines: true` says some were left out: `GET /inventory/counts/{id}` ' +
    "has them all. The answer here is always the whole count.",
);
const cancelInventoryCountRoute = action(
  "cancel",
  "cancelInventoryCount",
  "Cancel an open or submitted count",
);

export const countRoutes = createRouter()
  .openapi(listInventoryCountsRoute, async (c) =>
    ok(c, await listCounts(c.var.tenantDb, c.req.valid("query"))),
  )
  .openapi(createInventoryCountRoute, async (c) =>
    created(c, await createCount(c.var.tenantDb, actorOf(c), c.req.valid("json"))),
  )
  .openapi(getInventoryCountRoute, async (c) =>
    ok(c, await readCount(c.var.tenantDb, c.req.valid("param").id)),
  )
  .openapi(recordInventoryCountLinesRoute, async (c) =>
    ok(c, await recordLines(c.var.tenantDb, actorOf(c), c.req.valid("param").id, c.req.valid("json"))),
  )
  .openapi(submitInventoryCountRoute, async (c) =>
    ok(c, await submitCount(c.var.tenantDb, c.req.valid("param").id)),
  )
  .openapi(approveInventoryCountRoute, async (c) => {
    assertMayApprove(c.var.scopes);
    return ok(c, await approveCount(c.var.tenantDb, actorOf(c), c.req.valid("param").id));
  })
  .openapi(cancelInventoryCountRoute, async (c) =>
    ok(c, await cancelCount(c.var.tenantDb, c.req.valid("param").id)),
  );
