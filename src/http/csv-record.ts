import type { ExactNumber } from "../money";

// CSV records as RFC 4180 writes them, with the spreadsheet formula guard: reports, exports and invoices.

export type CsvCell = string | number | ExactNumber | null;

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
