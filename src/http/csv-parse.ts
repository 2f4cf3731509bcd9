import { csvText } from "./csv-record";

// The one CSV reader of every import (POST /products/import, the import jobs' rows and header, the body checks):
// RFC 4180, refusing what it cannot read rather than guessing. Hand-written, where a maintained library would be
// preferred, because none fits both halves of the job import: it cuts a 100 MiB upload into byte ranges with a
// streaming byte scanner (src/http/record-scanner.ts) and parses each range alone, so the reader's grammar must be
// exactly the scanner's, which `test/csv-reader.test.ts` checks on random files. The libraries that run in workerd
// without nodejs_compat read otherwise: d3-dsv reads an unclosed quote to the end of the file without a word,
// papaparse guesses one line-break style per file and keeps reading a malformed quoted cell to a later quote,
// @vanillaes/csv drops an unclosed last cell, and csv-parse needs Node's Buffer (docs/decisions/jobs.md, "One CSV reader").
//
// The grammar: records end at CRLF, LF or CR outside quotes; cells are separated by commas; a quote opens a quoted
// cell only at a cell's start, inside which `""` is a quote and line breaks are text; the closing quote must be
// followed by a comma, a line break or the end. A quote inside an unquoted cell is text (`12" pipe`). A blank line
// is no record. Problems (a quote never closed, text after a closing quote) make the record unreadable, and are
// reported with it: the records found are the scanner's either way.

export interface CsvRecord {
  /** The (physical) line the record starts on. */
  line: number;
  cells: string[];
  /** Why the record cannot be read, if it cannot. */
  problem?: string;
}

const QUOTE = 0x22;
const COMMA = 0x2c;
const LF = 0x0a;
const CR = 0x0d;

/** The records of `text`, whose first line is `firstLine`. */
export function readCsv(text: string, firstLine = 1): CsvRecord[] {
  const records: CsvRecord[] = [];
  let line = firstLine;
  let record: CsvRecord | null = null;
  let cell = "";
  // Where the current cell's text starts in `text` (unquoted cells are sliced, not built char by char).
  let start = 0;
  let quotedFrom = 0; // the line a quoted cell opened on
  let state: "cellStart" | "unquoted" | "quoted" | "closed" = "cellStart";
  const endCell = (end: number) => {
    if (state === "unquoted") cell = text.slice(start, end);
    (record as CsvRecord).cells.push(cell);
    cell = "";
  };
  const endRecord = () => {
    const done = record as CsvRecord;
    // A blank line (one empty cell) is no record.
    if (!(done.cells.length === 1 && done.cells[0] === "" && !done.problem)) records.push(done);
    record = null;
  };
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const isBreak = code === LF || code === CR;
    if (record === null) {
      if (isBreak) {
        if (!(code === LF && text.charCodeAt(i - 1) === CR)) line++;
        continue;
      }
      record = { line, cells: [] };
      state = "cellStart";
    }
    if (state === "quoted") {
      if (code === QUOTE) {
        if (text.charCodeAt(i + 1) === QUOTE) {
          cell += '"';
          i++;
        } else state = "closed";
      } else {
        cell += text[i];
        if (isBreak && !(code === LF && text.charCodeAt(i - 1) === CR)) line++;
      }
      continue;
    }
    if (code === COMMA || isBreak) {
      endCell(i);
      state = "cellStart";
      if (isBreak) {
        if (!(code === LF && text.charCodeAt(i - 1) === CR)) line++;
        endRecord();
      }
      continue;
    }
    if (state === "cellStart") {
      if (code === QUOTE) {
        state = "quoted";
        quotedFrom = line;
      } else {
        state = "unquoted";
        start = i;
      }
    } else if (state === "closed") {
      // Read on as the scanner does (unquoted), so the record ends where the scanner's does.
      record.problem ??= `text after the closing quote of cell ${record.cells.length + 1} (quote it whole, with "" for a quote)`;
      cell += text[i];
    }
  }
  if (record !== null) {
    const open = state === "quoted";
    if (open) {
      (record as CsvRecord).problem =
        `a quote opened on line ${quotedFrom} is never closed (every line after it was read into one cell)`;
    }
    endCell(text.length);
    endRecord();
  }
  return records;
}

/** The columns a header record names (trimmed), or why it cannot be a header. */
export function csvColumns(header: CsvRecord): { columns: string[] } | { problem: string } {
  if (header.problem) return { problem: header.problem };
  const columns = header.cells.map((cell) => cell.trim());
  const twice = columns.find((column, i) => column !== "" && columns.indexOf(column) !== i);
  return twice === undefined ? { columns } : { problem: `the header names the column ${twice} twice` };
}

// A number as spreadsheets write it. Not Number(): it reads `0x10` as 16, `0b11` as 3 and `Infinity`; such a cell
// stays text and is refused as not a number.
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

/** How a CSV's cells are typed: the columns that hold numbers, and those that hold one of a few words. */
export interface CsvColumnTypes {
  numeric: ReadonlySet<string>;
  /** A cell naming one of its column's words in any case reads as that word (a spreadsheet's `active`). */
  words?: Readonly<Record<string, readonly string[]>>;
}

/** A cell of a column of `words`: the word it names in any case, else the cell as typed (for the schema to refuse). */
const wordOf = (cell: string, words: readonly string[] | undefined) =>
  words?.find((word) => word.toLowerCase() === cell.toLowerCase()) ?? cell;

/**
 * A record as an object: each non-empty cell (trimmed, the export's formula escape undone: `csvText`) under its
 * column's name; a cell of a `numeric` column that is a decimal number becomes a number (anything else stays text,
 * for the schema to refuse), one of a column of words the word as the API spells it. Or why it is not one: an
 * unreadable record, more cells than the header has columns.
 */
export function csvObject(
  columns: readonly string[],
  record: CsvRecord,
  types: CsvColumnTypes,
): { value: Record<string, unknown> } | { problem: string } {
  if (record.problem) return { problem: record.problem };
  if (record.cells.length > columns.length) {
    return { problem: `${record.cells.length} cells, but the header names ${columns.length} columns` };
  }
  const value = Object.fromEntries(
    columns.flatMap((column, i) => {
      const cell = csvText(record.cells[i]?.trim() ?? "");
      if (cell === "") return [];
      if (types.numeric.has(column)) return [[column, DECIMAL.test(cell) ? Number(cell) : cell]];
      return [[column, wordOf(cell, types.words?.[column])]];
    }),
  );
  return { value };
}
