/**
 * Parses RFC 4180 CSV (quoted fields, doubled quotes, CRLF or LF) into rows of cells.
 * A trailing newline does not make an empty row.
 */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"' && cell === "") quoted = true;
    else if (ch === ",") {
      row.push(cell);
      cell = "";
    } else if (ch === "\n" || ch === "\r") {
      if (ch === "\r" && text[i + 1] === "\n") i++;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = "";
    } else cell += ch;
  }
  if (cell !== "" || row.length > 0) {
    row.push(cell);
    rows.push(row);
  }
  return rows.filter((r) => !(r.length === 1 && r[0] === ""));
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
 * A CSV row as an object: each non-empty cell (trimmed) under its column's name; a cell of a `numeric` column
 * that is a decimal number becomes a number (anything else stays text, for the schema to refuse), one of a column
 * of words the word as the API spells it.
 */
export function csvObject(
  columns: readonly string[],
  cells: readonly string[],
  types: CsvColumnTypes,
): Record<string, unknown> {
  return Object.fromEntries(
    columns.flatMap((column, i) => {
      const cell = cells[i]?.trim() ?? "";
      if (cell === "") return [];
      if (types.numeric.has(column)) return [[column, DECIMAL.test(cell) ? Number(cell) : cell]];
      return [[column, wordOf(cell, types.words?.[column])]];
    }),
  );
}
