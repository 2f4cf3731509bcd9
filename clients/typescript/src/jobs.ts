// Imports from a file, hand-written beside the generated operations: the upload's body is the file itself (not
// JSON) and a job's result is a CSV file, so these two calls are sent here; the job in between is the generated
// `jobs.create` and `jobs.get`. The same helpers in every client (docs/decisions/jobs.md).

import type { Resources } from "./generated/operations.js";
import type { CallOptions, Transport } from "./transport.js";
import type { DataOf, OperationMeta } from "./types.js";

export type Job = DataOf<"getJob">;
export type ImportType = "product_import" | "stock_import";

const UPLOAD: OperationMeta = {
  operationId: "createUpload" as OperationMeta["operationId"],
  access: "tenant",
  retry: "refused-only",
};
const RESULT: OperationMeta = {
  operationId: "getJobResult" as OperationMeta["operationId"],
  access: "tenant",
  retry: "safe",
};
const ENDED = new Set(["succeeded", "failed", "cancelled"]);

export type ImportFileOptions = CallOptions & {
  /** `text/csv` (default) or `application/x-ndjson`. */
  contentType?: "text/csv" | "application/x-ndjson";
  /** The file's name, kept with the upload. */
  filename?: string;
  /** The job's options (`reason` for a stock import). */
  options?: { reason?: string };
} & WaitOptions;

export type WaitOptions = {
  /** How often the job is read (default 1,000 ms). */
  pollIntervalMs?: number;
  /** How long to wait for the job to end (default 30 minutes). */
  waitTimeoutMs?: number;
  signal?: AbortSignal;
};

export class JobFiles {
  constructor(
    private readonly transport: Transport,
    private readonly jobs: Resources["jobs"],
  ) {}

  /**
   * Uploads `file` (CSV with a header row, or NDJSON) and imports it as a `type` job, then waits for the job to end
   * and returns it: `status`, `processed`, `failed` and the first failing rows with their lines. `jobResult(job.id)`
   * is the error report with every failing row.
   */
  async importFile(
    type: ImportType,
    file: string | Uint8Array | Blob,
    options: ImportFileOptions = {},
  ): Promise<Job> {
    const contentType = options.contentType ?? "text/csv";
    const upload = await this.transport.call(UPLOAD, options, (init) =>
      this.transport.api.POST("/api/v1/uploads", {
        ...init,
        headers: { ...init.headers, "Content-Type": contentType },
        params: { query: options.filename ? { filename: options.filename } : {} },
        body: file as never,
        bodySerializer: (body: unknown) => body as BodyInit,
      }),
    );
    const job = await this.jobs.create(
      { type, uploadId: upload.id, options: options.options ?? {} },
      { signal: options.signal },
    );
    return this.waitForJob(job.id, options);
  }

  /** Reads the job until it has ended (succeeded, failed or cancelled) and returns it. */
  async waitForJob(id: string, options: WaitOptions = {}): Promise<Job> {
    const deadline = Date.now() + (options.waitTimeoutMs ?? 30 * 60_000);
    for (;;) {
      const job = await this.jobs.get(id, { signal: options.signal });
      if (ENDED.has(job.status)) return job;
      if (Date.now() > deadline) throw new Error(`job ${id} is still ${job.status}`);
      await new Promise((resolve) => setTimeout(resolve, options.pollIntervalMs ?? 1000));
      options.signal?.throwIfAborted();
    }
  }

  /** A succeeded job's file as text: an export's CSV, or an import's error report (`line,errors`). */
  jobResult(id: string, options?: CallOptions): Promise<string> {
    return this.transport.call(RESULT, options, (init) =>
      this.transport.api.GET("/api/v1/jobs/{id}/result", {
        ...init,
        params: { path: { id } },
        parseAs: "text",
      }),
    ) as Promise<string>;
  }
}
