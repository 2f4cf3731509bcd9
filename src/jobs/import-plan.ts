import { NonRetryableError } from "cloudflare:workflows";
import { uploadKey } from "../files/keys";
import { csvHeaderColumns } from "../http/csv-header";
import { type FileFormat, MAX_ROW_BYTES, RecordScanner } from "../http/record-scanner";

// An import's first step: the uploaded file streamed once to find where its chunks of rows start (nothing of it
// is held but the scanner's state), and its CSV header read.

/** Rows per chunk: one step, one batch of writes (the bulk writers' own bound, docs/decisions/bulk.md). */
export const ROWS_PER_CHUNK = 1000;
/** The most bytes a chunk's step reads and parses at once (it holds them, their text and their rows). */
const MAX_CHUNK_BYTES = 8 * MAX_ROW_BYTES;
// A Workflow instance runs at most 10,000 steps: the chunks leave room for its other steps.
const MAX_CHUNKS = 9000;

/**
 * A run of rows of the file: where its bytes are and the line its first row is on. An `oversized` chunk is one row
 * longer than MAX_ROW_BYTES, which is not read: it is that row's error.
 */
export interface ImportChunk {
  n: number;
  offset: number;
  length: number;
  line: number;
  oversized?: true;
}

export interface ImportPlan {
  format: FileFormat;
  /** The CSV's column names (null for NDJSON). */
  columns: string[] | null;
  rows: number;
  chunks: ImportChunk[];
}

/** Cuts the rows into chunks as their ends become known: at most ROWS_PER_CHUNK rows and MAX_CHUNK_BYTES each. */
class Chunker {
  readonly chunks: ImportChunk[] = [];
  rows = 0;
  private open: { offset: number; line: number; rows: number } | null = null;

  /** A row from `offset` (on `line`) to `end`. */
  add(offset: number, line: number, end: number): void {
    this.rows++;
    if (end - offset > MAX_ROW_BYTES) {
      this.close(offset);
      this.chunks.push({ n: this.chunks.length, offset, length: end - offset, line, oversized: true });
      return;
    }
    const open = this.open;
    if (open === null || open.rows === ROWS_PER_CHUNK || end - open.offset > MAX_CHUNK_BYTES) {
      this.close(offset);
      this.open = { offset, line, rows: 0 };
    }
    (this.open as { rows: number }).rows++;
  }

  /** Ends the open chunk at `end`. */
  close(end: number): void {
    if (this.open === null) return;
    const { offset, line } = this.open;
    this.chunks.push({ n: this.chunks.length, offset, length: end - offset, line });
    this.open = null;
  }
}

/** Why a job cannot read the file: it fails at its start, saying so. */
const unreadable = (why: string) => new NonRetryableError(why);

export async function planImport(
  bucket: R2Bucket,
  tenantId: string,
  upload: { id: string; format: FileFormat },
): Promise<ImportPlan> {
  const key = uploadKey(tenantId, upload.id);
  const object = await bucket.get(key);
  if (!object) throw unreadable(`The upload ${upload.id} is no longer stored`);
  const chunker = new Chunker();
  // A CSV's first record is its header, kept apart from the rows.
  let header = null as { line: number; end: number } | null;
  let last = null as { offset: number; line: number } | null;
  const ended = (end: number) => {
    if (last === null) return;
    if (upload.format === "csv" && header === null) header = { line: last.line, end };
    else chunker.add(last.offset, last.line, end);
  };
  const scanner = new RecordScanner(upload.format, (offset, line) => {
    ended(offset);
    last = { offset, line };
  });
  let offset = 0;
  const reader = object.body.getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    scanner.push(read.value, offset);
    offset += read.value.byteLength;
  }
  ended(offset);
  chunker.close(offset);
  const { chunks, rows } = chunker;
  if (rows === 0) throw unreadable("The file has no rows to import");
  if (chunks.length > MAX_CHUNKS) {
    throw unreadable(`A file holds at most ${MAX_CHUNKS * ROWS_PER_CHUNK} rows; this one has ${rows}`);
  }
  const columns = header === null ? null : await headerColumns(bucket, key, header);
  return { format: upload.format, columns, rows, chunks };
}

/**
 * The columns a CSV's header names; the job fails naming the header's line when it cannot be read (POST /uploads
 * refuses such a file, but one stored before it did may still be named).
 */
async function headerColumns(bucket: R2Bucket, key: string, header: { line: number; end: number }) {
  // Never more than one byte past the bound, which is enough to refuse it.
  const length = Math.min(header.end, MAX_ROW_BYTES + 1);
  const object = await bucket.get(key, { range: { offset: 0, length } });
  if (!object) throw unreadable("The upload is no longer stored");
  const read = csvHeaderColumns(new Uint8Array(await object.arrayBuffer()), header.line);
  if ("problem" in read) throw unreadable(read.problem);
  return read.columns;
}
