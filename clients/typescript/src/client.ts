import { Resources } from "./generated/operations.js";
import { type ImportFileOptions, type ImportType, type Job, JobFiles, type WaitOptions } from "./jobs.js";
import type { CallOptions } from "./transport.js";
import { Transport, type WarehouseClientOptions } from "./transport.js";

/**
 * The Warehouse Management API: one property per resource group (`products`, `inventory`, `orders`, ...),
 * one method per operation, each returning the envelope's `data` or throwing `WarehouseApiError`.
 *
 * ```ts
 * const client = new WarehouseClient({ baseUrl: "https://wms.example.com", apiKey: process.env.WMS_KEY });
 * for await (const product of client.products.listAll({ search: "widget" })) console.log(product.sku);
 * const job = await client.importFile("stock_import", csvText); // uploads, imports, waits
 * ```
 */
export class WarehouseClient extends Resources {
  readonly #files: JobFiles;

  constructor(options: WarehouseClientOptions) {
    const transport = new Transport(options);
    super(transport);
    this.#files = new JobFiles(transport, this.jobs);
  }

  /** Uploads a file (CSV or NDJSON), imports it as a job and waits for the job to end (src/jobs.ts). */
  importFile(type: ImportType, file: string | Uint8Array | Blob, options?: ImportFileOptions): Promise<Job> {
    return this.#files.importFile(type, file, options);
  }

  /** Reads a job until it has ended and returns it. */
  waitForJob(id: string, options?: WaitOptions): Promise<Job> {
    return this.#files.waitForJob(id, options);
  }

  /** A succeeded job's file as text: an export's CSV, or an import's error report. */
  jobResult(id: string, options?: CallOptions): Promise<string> {
    return this.#files.jobResult(id, options);
  }
}
