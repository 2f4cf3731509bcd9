import { sql } from "drizzle-orm";
import { check, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { tenantRowKey } from "./columns";

// Uploaded files and the jobs that import or export them (src/uploads, src/jobs; docs/decisions/jobs.md). The
// files themselves are R2 objects; these rows say whose they are and what became of them.

export const uploads = sqliteTable(
  "uploads",
  {
    ...tenantRowKey(),
    /** `csv` or `ndjson`, from the upload's Content-Type. */
    format: text("format", { enum: ["csv", "ndjson"] }).notNull(),
    bytes: integer("bytes").notNull(),
    filename: text("filename"),
    actorType: text("actor_type", { enum: ["user", "api_key"] }).notNull(),
    actorId: text("actor_id").notNull(),
    createdAt: text("created_at").notNull(),
    expiresAt: text("expires_at").notNull(),
  },
  (t) => [
    index("uploads_tenant_created_idx").on(t.tenantId, t.createdAt),
    // The cron's sweep of expired uploads, across tenants (src/uploads/sweep-expired.ts).
    index("uploads_expires_idx").on(t.expiresAt),
  ],
);

export const jobTypes = [
  "product_import",
  "stock_import",
  "products_export",
  "stock_export",
  "movements_export",
  "events_export",
] as const;
export const jobStatuses = ["queued", "running", "succeeded", "failed", "cancelled"] as const;

export const jobs = sqliteTable(
  "jobs",
  {
    ...tenantRowKey(),
    type: text("type", { enum: jobTypes }).notNull(),
    status: text("status", { enum: jobStatuses }).notNull(),
    uploadId: text("upload_id"),
    options: text("options", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    /** Rows in the file (an import, once it is split) or in the snapshot (an export). */
    total: integer("total"),
    /** An export's snapshot: the instant and, for the ledger and the events, the last row or seq it holds. */
    asOf: text("as_of"),
    asOfSeq: integer("as_of_seq"),
    /** Why a failed job failed (not a row's error: those are in its chunks). */
    error: text("error"),
    actorType: text("actor_type", { enum: ["user", "api_key"] }).notNull(),
    actorId: text("actor_id").notNull(),
    requestId: text("request_id").notNull(),
    createdAt: text("created_at").notNull(),
    startedAt: text("started_at"),
    finishedAt: text("finished_at"),
  },
  (t) => [
    index("jobs_tenant_created_idx").on(t.tenantId, t.createdAt, t.id),
    // Whether a live job reads an upload the sweep would delete.
    index("jobs_tenant_upload_idx").on(t.tenantId, t.uploadId),
    check("jobs_status_check", sql`${t.status} in ('queued', 'running', 'succeeded', 'failed', 'cancelled')`),
  ],
);

// One row per chunk of a job that is done, written in the SAME batch as the chunk's rows: a step retried after
// its batch committed finds it and applies nothing twice. `job_status` is the job's status read inside that
// batch; its CHECK fails the batch (so nothing of it is written) once the job is cancelled.
export const jobChunks = sqliteTable(
  "job_chunks",
  {
    tenantId: text("tenant_id").notNull(),
    jobId: text("job_id").notNull(),
    chunk: integer("chunk").notNull(),
    processed: integer("processed").notNull(),
    failed: integer("failed").notNull(),
    /** The chunk's failing rows: `[{ line, errors }]`, in line order. */
    errors: text("errors", { mode: "json" }).$type<{ line: number; errors: string[] }[]>().notNull(),
    /** An export's part: its R2 object's size in bytes. */
    bytes: integer("bytes"),
    jobStatus: text("job_status"),
    createdAt: text("created_at").notNull(),
  },
  (t) => [
    // A unique index rather than a primary key: SQLite names the index it broke, so a chunk written twice is
    // answered by name (src/db/constraint-errors.ts).
    uniqueIndex("job_chunks_tenant_job_chunk_unique").on(t.tenantId, t.jobId, t.chunk),
    check("job_chunks_job_running_check", sql`${t.jobStatus} = 'running'`),
  ],
);

// An export of mutable rows (products, stock levels) copies them here in ONE statement, which reads one
// snapshot; the parts are then written from the copy, and the copy is deleted when the job ends.
export const jobSnapshotRows = sqliteTable(
  "job_snapshot_rows",
  {
    tenantId: text("tenant_id").notNull(),
    jobId: text("job_id").notNull(),
    n: integer("n").notNull(),
    row: text("row", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.jobId, t.n] })],
);
