import { z } from "@hono/zod-openapi";
import { actorOf } from "../auth/principal";
import { grants } from "../auth/scopes";
import { created, envelopeOf } from "../http/envelope";
import { AppError } from "../http/errors";
import { createRouter } from "../http/router";
import { defineRoute, errorResponse, jsonContent as json } from "../pipeline/route";
import { createUpload } from "./create-upload";
import { UploadQuery, UploadRecord } from "./schemas";

/** The upload route's full path: the app's body checks (1 MiB, control characters) skip it. */
export const UPLOAD_PATH = "/api/v1/uploads";

const file = z.string().openapi({ format: "binary" });

const createUploadRoute = defineRoute(
  "tenant",
  {
    method: "post",
    path: "/uploads",
    operationId: "createUpload",
    tags: ["Jobs"],
    summary: "Upload a file (CSV or NDJSON, up to 100 MiB) for an import job; answers its id",
    description:
      "The body is the file itself, streamed to storage as it arrives, with its `Content-Type` (`text/csv` with a " +
      "header row, or `application/x-ndjson`: one JSON object per line) and `Content-Length`. Then " +
      "`POST /jobs {type, uploadId}` imports it. An upload can be named by jobs for 7 days, then it is deleted " +
      "(kept while a job reading it runs). A tenant's stored uploads hold at most 1 GiB (413 past it). The body " +
      "must be exactly `Content-Length` bytes (400 otherwise; nothing is stored) and UTF-8. Requires scope " +
      "`write:products` or `write:inventory` (the import's own scope is checked when the job is created); a " +
      "credential acting for one merchant cannot upload (jobs run for the whole tenant). " +
      "Idempotency-Key is not honoured here: the file is never held whole to compare it, and an upload sent twice " +
      "is only a second file.",
    request: {
      query: UploadQuery,
      body: {
        required: true,
        content: { "text/csv": { schema: file }, "application/x-ndjson": { schema: file } },
      },
    },
    responses: {
      201: { description: "The upload", ...json(envelopeOf(UploadRecord)) },
      413: errorResponse(
        "The file is larger than 100 MiB, or than the room left in the tenant's 1 GiB upload quota",
      ),
      415: errorResponse("Content-Type must be text/csv or application/x-ndjson"),
    },
  },
  { streamsBody: true },
);

export const uploadRoutes = createRouter().openapi(createUploadRoute, async (c) => {
  if (!grants(c.var.scopes, "write:products") && !grants(c.var.scopes, "write:inventory")) {
    throw new AppError("FORBIDDEN", "An upload needs the write:products or write:inventory scope");
  }
  // A file serves only an import job, and jobs run for the whole tenant (src/jobs/create-job.ts).
  if (c.var.tenantDb.merchantId) {
    throw new AppError(
      "FORBIDDEN",
      "Uploads are imported by jobs, which run for the whole tenant: a credential acting for one merchant cannot upload",
    );
  }
  const upload = await createUpload(
    c.var.tenantDb,
    c.env.FILES,
    actorOf(c),
    c.req.raw,
    c.req.valid("query").filename,
  );
  return created(c, upload);
});
