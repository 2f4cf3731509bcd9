import { csvParseRows } from "d3-dsv";

// Reading the API's CSV downloads in assertions. Parsing is d3-dsv's (RFC 4180: quoted fields may hold commas,
// quotes and line breaks); docs/decisions/testing.md says why that library.

/** The CSV's records as arrays of cells; the download must end its last record with CRLF, as RFC 4180 asks. */
export function parseCsv(text: string): string[][] {
  if (!text.endsWith("\r\n")) throw new Error("CSV does not end with CRLF");
  return csvParseRows(text);
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

/**
 * Reads a download to its end as it arrives: the UTF-8 text and how many chunks it came in. `afterChunk` runs
 * after each chunk with the count so far (to check what the server did meanwhile).
 */
export async function readStream(
  stream: ReadableStream<Uint8Array>,
  afterChunk: (chunks: number) => void = () => {},
): Promise<{ text: string; chunks: number }> {
  const decoder = new TextDecoder();
  let text = "";
  let chunks = 0;
  for await (const chunk of stream) {
    chunks++;
    text += decoder.decode(chunk, { stream: true });
    afterChunk(chunks);
  }
  return { text: text + decoder.decode(), chunks };
}
