import { asc, eq, sql } from "drizzle-orm";
import type { Actor } from "../auth/principal";
import { runBatch } from "../db/batch";
import type { TenantDb } from "../db/client";
import { insertSelect } from "../db/insert-select";
import { jobChunks, jobs } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import { notFound } from "../http/errors";
import { type JobRecord, MAX_SHOWN_ERRORS, type RowError } from "../record-schemas/job";

// A job's row and its chunks' records: what GET /jobs shows, what each step of its Workflow reads and writes.

export type JobRow = typeof jobs.$inferSelect;

/** A chunk's outcome as its record keeps it. */
export interface ChunkOutcome {
  processed: number;
  failed: number;
  errors: RowError[];
  /** The size of the chunk's part of the result (an export's rows, an import's error lines). */
  bytes: number;
}

export async function findJob(tdb: TenantDb, jobId: string): Promise<JobRow> {
  const [row] = await tdb.db
    .select()
    .from(jobs)
    .where(inTenant(tdb, jobs, eq(jobs.id, jobId)));
  if (!row) throw notFound("Job");
  return row;
}

/** Who the job acts as: its creator, in the request that created it (ledger rows name them). */
export const actorOfJob = (job: JobRow): Actor => ({
  actorType: job.actorType,
  actorId: job.actorId,
  requestId: job.requestId,
});

/**
 * The statement that records a chunk done, for the batch of the chunk's own writes: it fails that batch (so
 * nothing of the chunk is written) if the chunk is already recorded (`job_chunks_tenant_job_chunk_unique`) or
 * the job is no longer running (`job_chunks_job_running_check`: cancelled).
 */
export function chunkDone(tdb: TenantDb, jobId: string, chunk: number, outcome: ChunkOutcome, now: string) {
  return insertSelect(
    jobChunks,
    {
      tenantId: tdb.tenantId,
      jobId,
      chunk,
      processed: outcome.processed,
      failed: outcome.failed,
      errors: JSON.stringify(outcome.errors),
      bytes: outcome.bytes,
      jobStatus: sql`(select status from jobs where tenant_id = ${tdb.tenantId} and id = ${jobId})`,
      createdAt: now,
    },
    sql``,
  );
}

/** A chunk's record, if it is done. */
export async function doneChunk(
  tdb: TenantDb,
  jobId: string,
  chunk: number,
): Promise<ChunkOutcome | undefined> {
  const [row] = await tdb.db
    .select({
      processed: jobChunks.processed,
      failed: jobChunks.failed,
      errors: jobChunks.errors,
      bytes: jobChunks.bytes,
    })
    .from(jobChunks)
    .where(inTenant(tdb, jobChunks, eq(jobChunks.jobId, jobId), eq(jobChunks.chunk, chunk)));
  return row ? { ...row, bytes: row.bytes ?? 0 } : undefined;
}

/** The chunks' parts of a job's result, in order: which chunks have one and their sizes. */
export function resultParts(tdb: TenantDb, jobId: string) {
  return tdb.db
    .select({ chunk: jobChunks.chunk, bytes: jobChunks.bytes })
    .from(jobChunks)
    .where(inTenant(tdb, jobChunks, eq(jobChunks.jobId, jobId), sql`${jobChunks.bytes} > 0`))
    .orderBy(asc(jobChunks.chunk));
}

/** Each job's counts over its chunks and its first failing rows, for the jobs named. */
async function progressOf(tdb: TenantDb, jobIds: readonly string[]) {
  const named = sql`${jobChunks.jobId} in (select value from json_each(${JSON.stringify(jobIds)}))`;
  const read = await runBatch(tdb, {
    counts: tdb.db
      .select({
        jobId: jobChunks.jobId,
        processed: sql<number>`sum(${jobChunks.processed})`.mapWith(Number),
        failed: sql<number>`sum(${jobChunks.failed})`.mapWith(Number),
      })
      .from(jobChunks)
      .where(inTenant(tdb, jobChunks, named))
      .groupBy(jobChunks.jobId),
    // The first failing rows of each job: chunks in order, each chunk's rows in line order.
    errors: sql`select job_id as jobId, value from (
        select job_chunks.job_id, e.value,
          row_number() over (partition by job_chunks.job_id order by job_chunks.chunk, e.key) as place
        from job_chunks, json_each(job_chunks.errors) e
        where job_chunks.tenant_id = ${tdb.tenantId} and job_chunks.failed > 0 and ${named})
      where place <= ${MAX_SHOWN_ERRORS} order by job_id, place`,
  });
  const errors = new Map<string, RowError[]>();
  for (const row of read.errors.results as { jobId: string; value: string }[]) {
    errors.set(row.jobId, [...(errors.get(row.jobId) ?? []), JSON.parse(row.value) as RowError]);
  }
  return new Map(read.counts.map((r) => [r.jobId, { ...r, errors: errors.get(r.jobId) ?? [] }]));
}

/** Jobs as the API shows them, their progress read from their chunks. */
export async function jobRecords(tdb: TenantDb, rows: readonly JobRow[]): Promise<JobRecord[]> {
  const progress = rows.length
    ? await progressOf(
        tdb,
        rows.map((r) => r.id),
      )
    : new Map();
  return rows.map((row) => {
    const { processed = 0, failed = 0, errors = [] } = progress.get(row.id) ?? {};
    return {
      id: row.id,
      type: row.type,
      status: row.status,
      uploadId: row.uploadId,
      options: row.options,
      total: row.total,
      processed,
      failed,
      errors,
      asOf: row.asOf,
      asOfSeq: row.asOfSeq,
      error: row.error,
      resultUrl: row.status === "succeeded" ? `/api/v1/jobs/${row.id}/result` : null,
      createdAt: row.createdAt,
      startedAt: row.startedAt,
      finishedAt: row.finishedAt,
    };
  });
}

export async function jobRecord(tdb: TenantDb, row: JobRow): Promise<JobRecord> {
  const [record] = await jobRecords(tdb, [row]);
  return record as JobRecord;
}
