import type { ExactNumber } from "../money";

// CSV records as RFC 4180 writes them, with the spreadsheet formula guard: reports, exports and invoices.

export type CsvCell = string | number | ExactNumber | null;

// A spreadsheet treats a text cell that starts with one of these as a formula (CWE-1236), so an attacker's
// product name like `=HYPERLINK(...)` would run on the reader's machine. Tab and CR start formulas too.
// A spreadsheet in a locale that splits on `;` (or a tab-separated import) does not honour our quotes around
// `Mug;=HYPERLINK(...)`: it sees a cell `=HYPERLINK(...)`. So a formula start after any common separator is
// neutralised too, and a cell holding any of them is quoted.
//
// The guard is a `'` written before a formula start, at the start of a cell and after each `,`, `;` or tab in it.
// It is undone when a file is imported (`csvText`), so an export imports back byte for byte (issue #44). For that
// the escape must be unambiguous: a `'` already standing there is escaped too (`'Twas` is written `''Twas`), and
// the import drops exactly one `'` in each of those places. docs/decisions/jobs.md, "Export columns".
const ESCAPED = /^[=+\-@\t\r']|(?<=[,;\t])[=+\-@\t\r']/g;
const NEEDS_QUOTES = /[",;\t\r\n]/;
const GUARD = /(?<=^|[,;\t])'/g;

/**
 * One RFC 4180 field. Text gets a `'` before each formula start (or `'`) at its start and after a `,`, `;` or tab
 * inside it; numbers are written as they are (a negative delta is a number, not a formula), and null is an empty
 * field. Hand-written rather than csv-stringify: its `escape_formulas` covers only the start of a cell, and is not
 * undone by a reader.
 */
export function csvField(value: CsvCell): string {
  if (value === null) return "";
  if (typeof value === "number") return String(value);
  if (JSON.isRawJSON(value)) return value.rawJSON;
  const text = value.replace(ESCAPED, "'$&");
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** A cell's text as `csvField` was given it: one `'` dropped at its start and after each `,`, `;` or tab. */
export const csvText = (cell: string): string => cell.replace(GUARD, "");

/** One CSV record with its CRLF line break (RFC 4180). */
export function csvRecord(fields: readonly CsvCell[]): string {
  return `${fields.map(csvField).join(",")}\r\n`;
}
