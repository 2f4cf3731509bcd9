import { sql } from "drizzle-orm";
import type { Scope } from "../auth/scopes";
import { changesOf, runBatch } from "../db/batch";
import type { TenantDb } from "../db/client";
import { jobSnapshotRows, jobs } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import type { Bindings } from "../env";
import { conflict } from "../http/errors";
import type { JobRecord } from "../record-schemas/job";
import { assertMayRun, assertMaySee } from "./access";
import { findJob, jobRecord } from "./job-rows";

/**
 * `POST /jobs/{id}/cancel`: a queued or running job becomes cancelled and its Workflow instance is terminated. The
 * chunks it wrote stay written (each whole); a chunk being written as it is cancelled is refused by its own batch
 * (src/jobs/job-rows.ts `chunkDone`), so nothing is written after the answer. A finished job is a 409.
 */
export async function cancelJob(
  tdb: TenantDb,
  env: Bindings,
  held: readonly Scope[],
  jobId: string,
): Promise<JobRecord> {
  const job = await findJob(tdb, jobId);
  assertMaySee(held, job);
  assertMayRun(held, job.type);
  const now = new Date().toISOString();
  const { cancelled } = await runBatch(tdb, {
    cancelled: tdb.db
      .update(jobs)
      .set({ status: "cancelled", finishedAt: now })
      .where(inTenant(tdb, jobs, sql`${jobs.id} = ${jobId} and ${jobs.status} in ('queued', 'running')`)),
    snapshot: tdb.db
      .delete(jobSnapshotRows)
      .where(sql`${jobSnapshotRows.tenantId} = ${tdb.tenantId} and ${jobSnapshotRows.jobId} = ${jobId}`),
  });
  if (changesOf(cancelled) === 0) {
    const now = await findJob(tdb, jobId);
    throw conflict(`The job is already ${now.status}`);
  }
  // The instance may have just ended on its own: it has nothing left to stop then.
  await env.JOBS.get(jobId)
    .then((instance) => instance.terminate())
    .catch(() => undefined);
  return jobRecord(tdb, await findJob(tdb, jobId));
}
