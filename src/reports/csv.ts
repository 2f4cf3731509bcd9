import type { ExactNumber } from "../money";

type CsvCell = string | number | ExactNumber | null;

/** A CSV column: its header and how to read the cell from a report row. */
export interface CsvColumn<Row> {
  header: string;
  cell: (row: Row) => CsvCell;
}

// A spreadsheet treats a text cell that starts with one of these as a formula (CWE-1236), so an attacker's
// product name like `=HYPERLINK(...)` would run on the reader's machine. Tab and CR start formulas too.
const FORMULA_START = /^[=+\-@\t\r]/;
// A spreadsheet in a locale that splits on `;` (or a tab-separated import) does not honour our quotes around
// `Mug;=HYPERLINK(...)`: it sees a cell `=HYPERLINK(...)`. So a formula start after any common separator is
// neutralised too, and a cell holding any of them is quoted.
const FORMULA_AFTER_SEPARATOR = /([,;\t])(?=[=+\-@\t\r])/g;
const NEEDS_QUOTES = /[",;\t\r\n]/;

/**
 * One RFC 4180 field. Text that could be read as a formula, at its start or after a `,`, `;` or tab inside it, gets
 * a `'` there; numbers are written as they are (a negative delta is a number, not a formula), and null is an empty
 * field. Hand-written rather than csv-stringify: its `escape_formulas` covers only the start of a cell.
 */
export function csvField(value: CsvCell): string {
  if (value === null) return "";
  if (typeof value === "number") return String(value);
  if (JSON.isRawJSON(value)) return value.rawJSON;
  const text = `${FORMULA_START.test(value) ? "'" : ""}${value.replace(FORMULA_AFTER_SEPARATOR, "$1'")}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One CSV record with its CRLF line break (RFC 4180). */
export function csvRecord(fields: readonly CsvCell[]): string {
  return `${fields.map(csvField).join(",")}\r\n`;
}

/** One page of a download and where the next one starts (null: this was the last). */
export interface CsvPage<Row, Cursor> {
  rows: Row[];
  next: Cursor | null;
}

/**
 * A CSV body that reads its rows page by page: `nextPage(cursor)` returns the rows after `cursor` and
 * the cursor after them. Only one page is ever held in memory, and the next page is not read until the
 * client has taken the previous one (back pressure through `pull`). The first page is read by the
 * caller before the response starts, so a failure there is still an error envelope.
 */
export function csvStream<Row, Cursor>(
  columns: readonly CsvColumn<Row>[],
  firstPage: CsvPage<Row, Cursor>,
  nextPage: (cursor: Cursor) => Promise<CsvPage<Row, Cursor>>,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const encodePage = (rows: Row[]) =>
    encoder.encode(rows.map((row) => csvRecord(columns.map((column) => column.cell(row)))).join(""));
  let pending: CsvPage<Row, Cursor> | null = firstPage;
  let next: Cursor | null = null;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(csvRecord(columns.map((column) => column.header))));
    },
    async pull(controller) {
      // A page may be empty (a range of products with nothing to report) without being the last.
      for (;;) {
        const page: CsvPage<Row, Cursor> | null = pending ?? (next === null ? null : await nextPage(next));
        pending = null;
        if (page === null) {
          controller.close();
          return;
        }
        next = page.next;
        if (page.rows.length > 0) {
          controller.enqueue(encodePage(page.rows));
          return;
        }
      }
    },
  });
}
