import { csvHeaderColumns } from "../http/csv-header";
import { AppError } from "../http/errors";
import { MAX_ROW_BYTES, RecordScanner } from "../http/record-scanner";

// A CSV upload's header is read as the file streams past: a file whose header cannot be read (a column named twice,
// bytes that are not UTF-8, a quote never closed, past 1 MiB) is no import at all, so it is refused (400) before it
// is stored, rather than failing the job that names it later (docs/decisions/jobs.md, "One CSV reader").

/**
 * A stream that passes a CSV file through unchanged, holding a copy of its first bytes until its header record has
 * ended (at most MAX_ROW_BYTES and one chunk); then it errors if the header cannot be read, and `problem()` says why.
 */
export function csvHeaderCheck(): {
  stream: TransformStream<Uint8Array, Uint8Array>;
  problem: () => AppError | null;
} {
  let held: Uint8Array[] = [];
  let offset = 0;
  let records = 0;
  let headerLine = 1;
  let headerEnd: number | null = null;
  let checked = false;
  let problem: AppError | null = null;
  const scanner = new RecordScanner("csv", (start, line) => {
    if (records === 0) headerLine = line;
    else if (records === 1) headerEnd = start;
    records++;
  });
  /** Reads the header from the held bytes up to `end`; no header at all is left to the job ("no rows"). */
  const check = (end: number): AppError | null => {
    checked = true;
    const bytes = new Uint8Array(end);
    let at = 0;
    for (const chunk of held) {
      if (at === end) break;
      const part = chunk.subarray(0, end - at);
      bytes.set(part, at);
      at += part.byteLength;
    }
    held = [];
    if (records === 0) return null;
    const read = csvHeaderColumns(bytes, headerLine);
    if (!("problem" in read)) return null;
    return new AppError("VALIDATION_FAILED", "The CSV's header cannot be read: nothing was stored", {
      errors: [`body: ${read.problem}`],
    });
  };
  const stream = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      if (!checked) {
        held.push(chunk);
        scanner.push(chunk, offset);
        offset += chunk.byteLength;
        if (headerEnd !== null || offset > MAX_ROW_BYTES) problem = check(headerEnd ?? offset);
        if (problem) throw problem;
      }
      controller.enqueue(chunk);
    },
    flush() {
      if (!checked) problem = check(offset);
      if (problem) throw problem;
    },
  });
  return { stream, problem: () => problem };
}
