import { NonRetryableError } from "cloudflare:workflows";
import { uploadKey } from "../files/keys";
import { parseCsv } from "../http/csv-parse";
import { type FileFormat, RecordScanner } from "./record-scanner";

// An import's first step: the uploaded file streamed once to find where its chunks of rows start (nothing of it
// is held but the scanner's state), and its CSV header read.

/** Rows per chunk: one step, one batch of writes (the bulk writers' own bound, docs/decisions/bulk.md). */
export const ROWS_PER_CHUNK = 1000;
// A Workflow instance runs at most 10,000 steps: the chunks leave room for its other steps.
const MAX_CHUNKS = 9000;

/** A run of rows of the file: where its bytes are and the line its first row is on. */
export interface ImportChunk {
  n: number;
  offset: number;
  length: number;
  line: number;
}

export interface ImportPlan {
  format: FileFormat;
  /** The CSV's column names (null for NDJSON). */
  columns: string[] | null;
  rows: number;
  chunks: ImportChunk[];
}

export async function planImport(
  bucket: R2Bucket,
  tenantId: string,
  upload: { id: string; format: FileFormat },
): Promise<ImportPlan> {
  const key = uploadKey(tenantId, upload.id);
  const object = await bucket.get(key);
  if (!object) throw new NonRetryableError(`The upload ${upload.id} is no longer stored`);
  const starts: { offset: number; line: number }[] = [];
  let records = 0;
  let headerEnd: number | undefined;
  const dataRow = upload.format === "csv" ? 1 : 0; // a CSV's first record is its header
  const scanner = new RecordScanner(upload.format, (offset, line) => {
    if (records === 1 && dataRow === 1) headerEnd = offset;
    if (records >= dataRow && (records - dataRow) % ROWS_PER_CHUNK === 0) starts.push({ offset, line });
    records++;
  });
  let offset = 0;
  const reader = object.body.getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    scanner.push(read.value, offset);
    offset += read.value.byteLength;
  }
  const rows = Math.max(0, records - dataRow);
  if (rows === 0) throw new NonRetryableError("The file has no rows to import");
  if (starts.length > MAX_CHUNKS) {
    throw new NonRetryableError(
      `A file holds at most ${MAX_CHUNKS * ROWS_PER_CHUNK} rows; this one has ${rows}`,
    );
  }
  let columns: string[] | null = null;
  if (upload.format === "csv") {
    const header = await bucket.get(key, { range: { offset: 0, length: headerEnd ?? object.size } });
    const text = (await header?.text())?.replace(/^\uFEFF/, "") ?? "";
    columns = (parseCsv(text)[0] ?? []).map((column) => column.trim());
  }
  const chunks = starts.map((start, n) => ({
    n,
    offset: start.offset,
    length: (starts[n + 1]?.offset ?? offset) - start.offset,
    line: start.line,
  }));
  return { format: upload.format, columns, rows, chunks };
}
