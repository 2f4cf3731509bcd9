// Reading the API's CSV downloads in assertions.

/** RFC 4180 parsing for assertions: quoted fields may hold commas, quotes and line breaks. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ",") {
      row.push(field);
      field = "";
    } else if (char === "\r" && text[i + 1] === "\n") {
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
      i++;
    } else field += char;
  }
  if (field !== "" || row.length) throw new Error("CSV does not end with CRLF");
  return rows;
}

/** The CSV's records as objects keyed by its header row. */
export function csvObjects(text: string): Record<string, string>[] {
  const [header = [], ...records] = parseCsv(text);
  return records.map((record) => Object.fromEntries(header.map((name, i) => [name, record[i] ?? ""])));
}

/**
 * What a JSON report row looks like in the CSV: null is empty, numbers as written, and text that a
 * spreadsheet would run as a formula prefixed with `'`.
 */
export function asCsvCells(item: Record<string, unknown>, headers: string[]): Record<string, string> {
  return Object.fromEntries(
    headers.map((name) => {
      const value = item[name];
      if (value === null || value === undefined) return [name, ""];
      const text = String(value);
      return [name, typeof value === "string" && /^[=+\-@\t\r]/.test(text) ? `'${text}` : text];
    }),
  );
}
