import { NonRetryableError } from "cloudflare:workflows";
import { runBatch, type Statement, utf8Bytes } from "../db/batch";
import { dbFor, type TenantDb } from "../db/client";
import { answerFor } from "../db/constraint-errors";
import type { Bindings } from "../env";
import { jobPartKey, uploadKey } from "../files/keys";
import { csvRecord } from "../http/csv-record";
import { MAX_ROW_BYTES } from "../http/record-scanner";
import { handOffEvents } from "../outbox/hand-off";
import { PRODUCT_CSV_COLUMNS } from "../product-core/schemas";
import type { RowError } from "../record-schemas/job";
import { exportKinds } from "./exports";
import type { ImportChunk, ImportPlan } from "./import-plan";
import { type ParsedRow, parseRows } from "./import-rows";
import { chunkDone, doneChunk, findJob, type JobRow } from "./job-rows";
import { assertCreatorMayGoOn } from "./lifecycle";
import { importProductRows } from "./product-import";
import { importStockRows, STOCK_CSV_COLUMNS } from "./stock-import";

// The steps between a job's start and its end: an import's chunks and an export's parts. Each is safe to run
// again: an import's chunk is recorded in the batch that writes it, so a retry after that batch committed
// finds the record and writes nothing; an export's part reads the same snapshot rows again and stores the
// same object again.

/** The failures of a job that is cancelled meanwhile, or a chunk another run of the step has written. */
const chunkRefusals = {
  job_chunks_job_running_check: () => {
    throw new NonRetryableError("The job was cancelled");
  },
  job_chunks_tenant_job_chunk_unique: () => undefined,
};

/** An import's error report lines for a chunk's failing rows. */
const errorLines = (errors: readonly RowError[]) =>
  errors.map((e) => csvRecord([e.line, e.errors.join("; ")])).join("");

const importers = {
  product_import: {
    columns: PRODUCT_CSV_COLUMNS,
    write: (
      tdb: TenantDb,
      _job: JobRow,
      rows: readonly ParsedRow[],
      commit: (errors: RowError[]) => Statement[],
    ) => importProductRows(tdb, rows, commit),
  },
  stock_import: { columns: STOCK_CSV_COLUMNS, write: importStockRows },
} as const;

/** The row error of a row longer than a chunk step reads. */
const TOO_LONG =
  `row: is longer than ${MAX_ROW_BYTES} bytes, and is not read (a quote that is never closed makes the rest ` +
  "of a CSV file one row)";

/** A chunk's bytes of the job's upload. */
async function chunkBytes(env: Bindings, tenantId: string, job: JobRow, chunk: ImportChunk) {
  const object = await env.FILES.get(uploadKey(tenantId, job.uploadId as string), {
    range: { offset: chunk.offset, length: chunk.length },
  });
  if (!object) throw new NonRetryableError("The upload is no longer stored");
  return new Uint8Array(await object.arrayBuffer());
}

/** One chunk of an import: its rows written (each on its own) with the chunk's record; returns its counts. */
export async function importChunk(
  env: Bindings,
  tenantId: string,
  jobId: string,
  plan: ImportPlan,
  chunk: ImportChunk,
): Promise<{ processed: number; failed: number }> {
  const tdb = await dbFor(env, tenantId);
  const job = await findJob(tdb, jobId);
  await assertCreatorMayGoOn(env, job);
  let outcome = await doneChunk(tdb, jobId, chunk.n);
  if (!outcome) {
    const importer = importers[job.type as keyof typeof importers];
    const rows = chunk.oversized
      ? [{ line: chunk.line, errors: [TOO_LONG] }]
      : parseRows(await chunkBytes(env, tenantId, job, chunk), plan, chunk, importer.columns);
    const now = new Date().toISOString();
    const commit = (errors: RowError[]) => [
      chunkDone(
        tdb,
        jobId,
        chunk.n,
        { processed: rows.length, failed: errors.length, errors, bytes: utf8Bytes(errorLines(errors)) },
        now,
      ),
    ];
    try {
      await importer.write(tdb, job, rows, commit);
    } catch (error) {
      answerFor(error, chunkRefusals);
    }
    await handOffEvents(env, tdb, tdb.committedEvents);
    outcome = await doneChunk(tdb, jobId, chunk.n);
    // The writer gave up on a batch that kept losing races to other writes: the step is retried.
    if (!outcome)
      throw new Error(`Chunk ${chunk.n}: the stock or products kept changing while it was written`);
  }
  if (outcome.bytes > 0)
    await env.FILES.put(jobPartKey(tenantId, jobId, chunk.n), errorLines(outcome.errors));
  return { processed: outcome.processed, failed: outcome.failed };
}

/** One part of an export: the snapshot's rows after `after` stored as CSV; returns the cursor after them. */
export async function exportPart(
  env: Bindings,
  tenantId: string,
  jobId: string,
  n: number,
  after: string | number | null,
): Promise<{ next: string | number | null }> {
  const tdb = await dbFor(env, tenantId);
  const job: JobRow = await findJob(tdb, jobId);
  await assertCreatorMayGoOn(env, job);
  const kind = exportKinds[job.type as keyof typeof exportKinds];
  const part = await kind.part(tdb, job, after);
  const bytes = utf8Bytes(part.text);
  if (bytes > 0) await env.FILES.put(jobPartKey(tenantId, jobId, n), part.text);
  if (!(await doneChunk(tdb, jobId, n))) {
    const record = chunkDone(
      tdb,
      jobId,
      n,
      { processed: part.rows, failed: 0, errors: [], bytes },
      new Date().toISOString(),
    );
    await runBatch(tdb, { record }).catch((error) => answerFor(error, chunkRefusals));
  }
  return { next: part.next };
}
