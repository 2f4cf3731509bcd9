import { NonRetryableError } from "cloudflare:workflows";
import { sql } from "drizzle-orm";
import { currentRightsIn } from "../auth/current-rights";
import { changesOf, runBatch } from "../db/batch";
import { dbFor, type TenantDb } from "../db/client";
import { jobSnapshotRows, jobs, uploads } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import type { Bindings } from "../env";
import { handOffEvents } from "../outbox/hand-off";
import { eventRow, previousStatementChanged } from "../outbox/outbox";
import { creatorStops } from "./access";
import { isImport } from "./catalogue";
import { exportKinds } from "./exports";
import { type ImportPlan, planImport } from "./import-plan";
import { findJob, type JobRow, jobRecord } from "./job-rows";

// A job's first and last steps: it starts (running, then its plan: an import's chunks, an export's snapshot) and
// ends succeeded or failed with its event. Each is one guarded batch: a cancelled job is never started or ended.

const ofJob = (tdb: TenantDb, job: JobRow) =>
  sql`${jobs.tenantId} = ${tdb.tenantId} and ${jobs.id} = ${job.id}`;

/**
 * Every step of a job first re-checks its creator's rights now (src/auth/rights.ts): once they no longer cover the
 * job (the creator left, was restricted to a merchant or demoted, the key was revoked or expired) the step fails
 * for good and the job ends failed, saying why.
 */
export async function assertCreatorMayGoOn(env: Bindings, job: JobRow): Promise<void> {
  const rights = await currentRightsIn(env, job.tenantId, { type: job.actorType, id: job.actorId });
  const stop = creatorStops(rights, job);
  if (stop) throw new NonRetryableError(`The job stopped: ${stop}`);
}

export type JobPlan = { kind: "import"; plan: ImportPlan } | { kind: "export" };

/** Marks the job running (only from queued or running) and plans it. */
export async function startJob(env: Bindings, tenantId: string, jobId: string): Promise<JobPlan> {
  const tdb = await dbFor(env, tenantId);
  const job = await findJob(tdb, jobId);
  await assertCreatorMayGoOn(env, job);
  const now = new Date().toISOString();
  const started = await tdb.db
    .update(jobs)
    .set({ status: "running", startedAt: sql`coalesce(${jobs.startedAt}, ${now})` })
    .where(sql`${ofJob(tdb, job)} and ${jobs.status} in ('queued', 'running')`);
  if (changesOf(started) === 0) throw new NonRetryableError(`The job is ${job.status}`);
  if (isImport(job.type)) {
    const [upload] = await tdb.db
      .select({ id: uploads.id, format: uploads.format })
      .from(uploads)
      .where(inTenant(tdb, uploads, sql`${uploads.id} = ${job.uploadId}`));
    if (!upload) throw new NonRetryableError("The upload is gone");
    const plan = await planImport(env.FILES, tenantId, upload);
    await tdb.db.update(jobs).set({ total: plan.rows }).where(ofJob(tdb, job));
    return { kind: "import", plan };
  }
  await exportKinds[job.type as keyof typeof exportKinds].snapshot(tdb, job, now);
  return { kind: "export" };
}

/** Ends the job (only while running): its status, its snapshot's copy deleted, its event, in ONE batch. */
async function endJob(
  env: Bindings,
  tenantId: string,
  jobId: string,
  end: { status: "succeeded" | "failed"; error: string | null },
): Promise<void> {
  const tdb = await dbFor(env, tenantId);
  const job = await findJob(tdb, jobId);
  if (job.status !== "queued" && job.status !== "running") return;
  if (end.status === "succeeded") await assertCreatorMayGoOn(env, job);
  const now = new Date().toISOString();
  const ended = { ...job, status: end.status, error: end.error, finishedAt: now };
  await runBatch(tdb, {
    job: tdb.db
      .update(jobs)
      .set({ status: end.status, error: end.error, finishedAt: now })
      .where(sql`${ofJob(tdb, job)} and ${jobs.status} in ('queued', 'running')`),
    event: eventRow(tdb, `job.${end.status}`, await jobRecord(tdb, ended), now, {
      onlyIf: previousStatementChanged,
    }),
    snapshot: tdb.db.delete(jobSnapshotRows).where(sql`tenant_id = ${tdb.tenantId} and job_id = ${job.id}`),
  });
  await handOffEvents(env, tdb, tdb.committedEvents);
}

export const finishJob = (env: Bindings, tenantId: string, jobId: string) =>
  endJob(env, tenantId, jobId, { status: "succeeded", error: null });

export const failJob = (env: Bindings, tenantId: string, jobId: string, error: string) =>
  endJob(env, tenantId, jobId, { status: "failed", error });
