import { z } from "@hono/zod-openapi";
import { actorOf } from "../auth/principal";
import { created, envelopeOf, ok } from "../http/envelope";
import { IdParam } from "../http/params";
import { createRouter } from "../http/router";
import { defineRoute, errorResponse, jsonContent as json } from "../pipeline/route";
import { JobRecord } from "../record-schemas/job";
import { cancelJob } from "./cancel-job";
import { createJob } from "./create-job";
import { getJob } from "./get-job";
import { listJobs } from "./list-jobs";
import { jobResult } from "./result";
import { CreateJobBody, JobPage, JobsQuery } from "./schemas";

const tags = ["Jobs"];
const SCOPES =
  "Scopes follow the data: `write:products` for a product_import, `write:inventory` for a stock_import, " +
  "`read:products` for a products_export, `read:inventory` for a stock_export or movements_export, and the read " +
  "scope of each event family an events_export holds.";
const one = (description: string) => ({ description, ...json(envelopeOf(JobRecord)) });

const createJobRoute = defineRoute("tenant", {
  method: "post",
  path: "/jobs",
  operationId: "createJob",
  tags,
  summary: "Start an import of an uploaded file or an export to a file, run in durable, resumable steps",
  description:
    "`product_import` and `stock_import` read an upload (`POST /uploads`): CSV with a header row, or NDJSON. A " +
    "product row is a `POST /products/batch` line (created or updated by SKU); a stock row names `sku` (or " +
    "`productId`), `locationCode` (or `locationId`, with `warehouseCode` when codes repeat) and `quantity` (an " +
    "adjustment, with `reason` or the job's `options.reason`) or `onHand` (a set, with an optional " +
    "`expectedOnHand`). Each row is applied on its own, exactly once; failing rows are listed with their line " +
    "numbers. Exports read one snapshot and write a CSV: `products_export`, `stock_export`, `movements_export` " +
    `and \`events_export\` (with \`options.from\`/\`to\`). ${SCOPES}`,
  request: { body: { required: true, ...json(CreateJobBody) } },
  responses: {
    201: one("The job, queued"),
    404: errorResponse("Unknown or expired upload"),
  },
});

const listJobsRoute = defineRoute("tenant", {
  method: "get",
  path: "/jobs",
  operationId: "listJobs",
  tags,
  summary: "Jobs, newest first (those whose data your scopes can read)",
  request: { query: JobsQuery },
  responses: { 200: { description: "A page of jobs", ...json(envelopeOf(JobPage)) } },
});

const getJobRoute = defineRoute("tenant", {
  method: "get",
  path: "/jobs/{id}",
  operationId: "getJob",
  tags,
  summary:
    "A job: its status, rows processed and failed, the first 100 row errors, and its result's URL when done",
  description: SCOPES,
  request: { params: IdParam },
  responses: { 200: one("The job"), 404: errorResponse("Unknown job") },
});

const cancelJobRoute = defineRoute("tenant", {
  method: "post",
  path: "/jobs/{id}/cancel",
  operationId: "cancelJob",
  tags,
  summary: "Cancel a queued or running job (what it has written stays written, each chunk whole)",
  description: SCOPES,
  request: { params: IdParam },
  responses: {
    200: one("The job, cancelled"),
    404: errorResponse("Unknown job"),
    409: errorResponse("The job has already ended"),
  },
});

const csv = z
  .string()
  .openapi({ format: "binary", example: "line,errors\r\n3,sku: product NOPE not found\r\n" });
const getJobResultRoute = defineRoute("tenant", {
  method: "get",
  path: "/jobs/{id}/result",
  operationId: "getJobResult",
  tags,
  summary: "A succeeded job's file: the export, or the import's error report (every failing row and why)",
  description:
    "CSV with a header row. An export's file name says its snapshot: `<type>-as-of-<instant>-seq-<n>.csv`, every " +
    `row as it was at that instant. ${SCOPES}`,
  request: { params: IdParam },
  responses: {
    200: {
      description: "The file",
      headers: {
        "Content-Disposition": {
          description: "`attachment` and the file's name (an export's: its snapshot's instant and seq).",
          schema: {
            type: "string" as const,
            example: 'attachment; filename="stock_export-as-of-2026-11-26T23-40-00.000Z-seq-1234.csv"',
          },
        },
      },
      content: { "text/csv": { schema: csv } },
    },
    404: errorResponse("Unknown job"),
    409: errorResponse("The job has not succeeded (yet)"),
  },
});

export const jobRoutes = createRouter()
  .openapi(createJobRoute, async (c) =>
    created(c, await createJob(c.var.tenantDb, c.env, c.var.scopes, actorOf(c), c.req.valid("json"))),
  )
  .openapi(listJobsRoute, async (c) =>
    ok(c, await listJobs(c.var.tenantDb, c.var.scopes, c.req.valid("query"))),
  )
  .openapi(getJobRoute, async (c) =>
    ok(c, await getJob(c.var.tenantDb, c.var.scopes, c.req.valid("param").id)),
  )
  .openapi(cancelJobRoute, async (c) =>
    ok(c, await cancelJob(c.var.tenantDb, c.env, c.var.scopes, c.req.valid("param").id)),
  )
  .openapi(getJobResultRoute, async (c) =>
    jobResult(c.var.tenantDb, c.env.FILES, c.var.scopes, c.req.valid("param").id),
  );
