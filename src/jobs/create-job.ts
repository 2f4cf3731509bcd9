import { and, eq, gt } from "drizzle-orm";
import { uuidv7 } from "uuidv7";
import type { Actor } from "../auth/principal";
import type { Scope } from "../auth/scopes";
import type { TenantDb } from "../db/client";
import { jobs, uploads } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import type { Bindings } from "../env";
import { AppError } from "../http/errors";
import { readableTypes } from "../outbox/readable-types";
import type { JobRecord } from "../record-schemas/job";
import { assertMayRun } from "./access";
import { findJob, jobRecord } from "./job-rows";
import type { CreateJobBody } from "./schemas";

/**
 * `POST /jobs`: the job stored as queued, then its Workflow instance created (named by the job's id, so the
 * instance and the job are one). An import names an upload of this tenant that has not expired (404 otherwise).
 */
export async function createJob(
  tdb: TenantDb,
  env: Bindings,
  held: readonly Scope[],
  actor: Actor,
  body: CreateJobBody,
): Promise<JobRecord> {
  // A job runs in the background for the whole tenant (its steps open an unscoped handle).
  if (tdb.merchantId) {
    throw new AppError(
      "FORBIDDEN",
      "Jobs run for the whole tenant: a credential acting for one merchant cannot start one",
    );
  }
  assertMayRun(held, body.type);
  const options = { ...body.options };
  // An events export holds the types its creator can read (403 for a type named that it cannot).
  if (body.type === "events_export") options.types = readableTypes(held, options.types);
  const now = new Date().toISOString();
  if (body.uploadId) {
    const [upload] = await tdb.db
      .select({ id: uploads.id })
      .from(uploads)
      .where(inTenant(tdb, uploads, and(eq(uploads.id, body.uploadId), gt(uploads.expiresAt, now))));
    if (!upload) {
      throw new AppError(
        "NOT_FOUND",
        `Upload ${body.uploadId} not found (an upload can be imported for 7 days)`,
        {
          errors: [`uploadId: upload ${body.uploadId} not found`],
        },
      );
    }
  }
  const id = uuidv7();
  await tdb.db.insert(jobs).values({
    id,
    tenantId: tdb.tenantId,
    type: body.type,
    status: "queued",
    uploadId: body.uploadId ?? null,
    options,
    actorType: actor.actorType,
    actorId: actor.actorId,
    requestId: actor.requestId,
    createdAt: now,
  });
  try {
    await env.JOBS.create({ id, params: { tenantId: tdb.tenantId, jobId: id } });
  } catch (error) {
    await tdb.db
      .update(jobs)
      .set({ status: "failed", error: "The job could not be started", finishedAt: new Date().toISOString() })
      .where(inTenant(tdb, jobs, eq(jobs.id, id)));
    throw new AppError("SERVICE_UNAVAILABLE", "The job could not be started; retry", {
      errors: [error instanceof Error ? error.message : String(error)],
    });
  }
  return jobRecord(tdb, await findJob(tdb, id));
}
