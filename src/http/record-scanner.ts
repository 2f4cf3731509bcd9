import { MAX_BODY_BYTES } from "./body-limit";
import { utf8Text } from "./utf8";

// Where the records of an uploaded file start, found byte by byte as the file streams past, so that a 100 MiB
// file is cut into chunks without being held in memory. A CSV record ends at a line break outside quotes, with
// the grammar of the CSV reader (src/http/csv-parse.ts: a quote opens a quoted cell only where the cell is still
// empty; a doubled quote inside is one quote; after the closing quote the record is read on unquoted), so each chunk
// parses alone to the records the whole file would (test/csv-reader.test.ts). An NDJSON
// record is a line. Line breaks are LF, CRLF or CR (UTF-8 never uses these bytes inside a character).

export type FileFormat = "csv" | "ndjson";

/** The most bytes a record (a row, a CSV header) of a file may have: a request body's bound, far past any row. */
export const MAX_ROW_BYTES = MAX_BODY_BYTES;

const QUOTE = 0x22;
const COMMA = 0x2c;
const LF = 0x0a;
const CR = 0x0d;

export class RecordScanner {
  /** The line the next byte is on (1-based): physical lines, as an editor numbers them. */
  line: number;
  private inRecord = false;
  private quoted = false;
  private quoteInQuoted = false;
  private cellEmpty = true;
  private afterCr = false;

  constructor(
    private readonly format: FileFormat,
    /** Called with each record's first byte (its offset in the file) and the line it starts on. */
    private readonly onRecord: (offset: number, line: number) => void,
    firstLine = 1,
  ) {
    this.line = firstLine;
  }

  /** Scans the next bytes of the file; `offset` is where they start in it. */
  push(bytes: Uint8Array, offset: number): void {
    for (let i = 0; i < bytes.length; i++) {
      const byte = bytes[i] as number;
      const isBreak = byte === LF || byte === CR;
      // CRLF is one line break.
      if (isBreak && !(byte === LF && this.afterCr)) this.line++;
      this.afterCr = byte === CR;
      if (this.format === "csv" && this.quoted) {
        if (!this.quoteInQuoted) {
          if (byte === QUOTE) this.quoteInQuoted = true;
          else this.cellEmpty = false;
          continue;
        }
        this.quoteInQuoted = false;
        if (byte === QUOTE) {
          this.cellEmpty = false; // "" inside quotes: one quote
          continue;
        }
        this.quoted = false; // the quote before this byte closed the cell; this byte is read unquoted
      }
      if (isBreak) {
        this.inRecord = false;
        this.cellEmpty = true;
        continue;
      }
      if (!this.inRecord) {
        this.inRecord = true;
        this.onRecord(offset + i, this.line);
      }
      if (this.format === "ndjson") continue;
      if (byte === COMMA) this.cellEmpty = true;
      else if (byte === QUOTE && this.cellEmpty) this.quoted = true;
      else this.cellEmpty = false;
    }
  }
}

/** Each record of `bytes` (a whole number of records): its text (null when it is not UTF-8) and the line it starts on. */
export function recordsOf(
  bytes: Uint8Array,
  format: FileFormat,
  firstLine: number,
): { text: string | null; line: number }[] {
  const starts: { offset: number; line: number }[] = [];
  new RecordScanner(format, (offset, line) => starts.push({ offset, line }), firstLine).push(bytes, 0);
  return starts.map((start, i) => ({
    text: utf8Text(bytes.subarray(start.offset, starts[i + 1]?.offset ?? bytes.length)),
    line: start.line,
  }));
}
