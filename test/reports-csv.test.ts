import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { csvField, csvRecord } from "../src/http/csv-record";
import { csvStream } from "../src/http/csv-stream";
import { readStream } from "./support/csv";

// The CSV writer on its own: what a spreadsheet user would see, and that rows are read only as the
// download is consumed (the end-to-end download over D1 is in reports-inventory.test.ts).
describe("csvField (RFC 4180)", () => {
  it("leaves plain text and numbers alone and writes null as an empty field", () => {
    expect(csvRecord(["SKU-1", "Blue mug", 12, 0.5, null])).toBe("SKU-1,Blue mug,12,0.5,\r\n");
  });

  it("quotes fields with commas, quotes, CR or LF, doubling the quotes", () => {
    expect(csvField('Mug, "large"')).toBe('"Mug, ""large"""');
    expect(csvField("line one\nline two")).toBe('"line one\nline two"');
    expect(csvField("a\r\nb")).toBe('"a\r\nb"');
  });

  it("neutralises text that a spreadsheet would run as a formula", () => {
    expect(csvField('=HYPERLINK("http://evil","x")')).toBe(`"'=HYPERLINK(""http://evil"",""x"")"`);
    expect(csvField("+1+2")).toBe("'+1+2");
    expect(csvField("-2+3")).toBe("'-2+3");
    expect(csvField("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(csvField("\tcmd")).toBe(`"'\tcmd"`);
    expect(csvField("a=b")).toBe("a=b");
  });

  it("quotes a cell holding the separator of any common locale: comma, semicolon or tab", () => {
    expect(csvField("Mugs; large")).toBe('"Mugs; large"');
    expect(csvField("Mugs\tlarge")).toBe('"Mugs\tlarge"');
  });

  it("neutralises a formula after each separator, as a spreadsheet splitting on ; or tab would see it", () => {
    expect(csvField('Mug;=HYPERLINK("http://evil","x")')).toBe(`"Mug;'=HYPERLINK(""http://evil"",""x"")"`);
    expect(csvField("a,+1;-2\t@3")).toBe(`"a,'+1;'-2\t'@3"`);
    expect(csvField("=1;=2")).toBe(`"'=1;'=2"`);
    expect(csvField("a\t\t=b")).toBe(`"a\t'\t'=b"`);
    expect(csvField("Mug; =x")).toBe('"Mug; =x"'); // a space first: text to every spreadsheet
  });

  it("leaves no cell starting a formula, whichever of comma, semicolon or tab a spreadsheet splits on", () => {
    const formulaStart = /^[=+\-@\r]/;
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom("=", "+", "-", "@", "\t", "\r", ",", ";", '"', "a", " ") }),
        (text) => {
          const field = csvField(text);
          for (const separator of [",", ";", "\t"]) {
            // A reader in another locale does not honour our quotes: it splits the raw text.
            for (const cell of field.split(separator)) {
              expect(formulaStart.test(cell.replace(/^"/, "")), JSON.stringify({ text, field, cell })).toBe(
                false,
              );
            }
          }
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("writes negative numbers as numbers, not as neutralised text", () => {
    expect(csvField(-5)).toBe("-5");
    expect(csvField(-0.0001)).toBe("-0.0001");
  });
});

describe("csvStream", () => {
  type Row = { n: number; name: string };
  const columns = [
    { header: "n", cell: (row: Row) => row.n },
    { header: "name", cell: (row: Row) => row.name },
  ];
  const rowsFrom = (start: number, count: number) =>
    Array.from({ length: count }, (_, i) => ({ n: start + i, name: `row ${start + i}` }));

  it("reads the next page only when the reader asks for more", async () => {
    const pageSize = 100;
    const pages = 120; // 12,000 rows
    let fetched = 0;
    const page = (start: number) => ({
      rows: rowsFrom(start, pageSize),
      next: start + pageSize < pages * pageSize ? start + pageSize : null,
    });
    const stream = csvStream(columns, page(0), async (start: number) => {
      fetched++;
      return page(start);
    });
    // Never more than one page ahead of what has been read: the report is never held whole.
    const { text } = await readStream(stream, (chunks) => expect(fetched).toBeLessThanOrEqual(chunks));
    const lines = text.split("\r\n");
    expect(lines[0]).toBe("n,name");
    expect(lines).toHaveLength(pages * pageSize + 2); // header, rows, and the empty string after the last CRLF
    expect(lines[pages * pageSize]).toBe(`${pages * pageSize - 1},row ${pages * pageSize - 1}`);
    expect(fetched).toBe(pages - 1); // the first page came with the call; the last says there is no next
  });

  it("skips empty pages that are not the last, and ends with the page that has no next", async () => {
    const pages = new Map<number, { rows: Row[]; next: number | null }>([
      [1, { rows: [], next: 2 }],
      [2, { rows: rowsFrom(5, 2), next: 3 }],
      [3, { rows: [], next: null }],
    ]);
    const stream = csvStream(columns, { rows: rowsFrom(0, 1), next: 1 }, async (cursor: number) => {
      const page = pages.get(cursor);
      if (!page) throw new Error(`read past the end: ${cursor}`);
      return page;
    });
    expect(await new Response(stream).text()).toBe("n,name\r\n0,row 0\r\n5,row 5\r\n6,row 6\r\n");
  });
});
