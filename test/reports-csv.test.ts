import { describe, expect, it } from "vitest";
import { csvField, csvRecord, csvStream } from "../src/reports/csv";

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
    expect(csvField("\tcmd")).toBe("'\tcmd");
    expect(csvField("a=b")).toBe("a=b");
  });

  it("writes negative numbers as numbers, not as neutralised text", () => {
    expect(csvField(-5)).toBe("-5");
    expect(csvField(-0.0001)).toBe("-0.0001");
  });
});

describe("csvStream", () => {
  it("reads the next page only when the reader asks for more", async () => {
    const pageSize = 100;
    const pages = 120; // 12,000 rows
    let fetched = 0;
    const page = (start: number) =>
      Array.from({ length: pageSize }, (_, i) => ({ n: start + i, name: `row ${start + i}` }));
    const stream = csvStream(
      [
        { header: "n", cell: (row: { n: number }) => row.n },
        { header: "name", cell: (row: { name: string }) => row.name },
      ],
      pageSize,
      page(0),
      async (after) => {
        fetched++;
        return after.n + 1 < pages * pageSize ? page(after.n + 1) : [];
      },
    );
    const reader = stream.getReader();
    const decoder = new TextDecoder();
    let text = "";
    let chunks = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks++;
      text += decoder.decode(value);
      // Never more than one page ahead of what has been read: the report is never held whole.
      expect(fetched).toBeLessThanOrEqual(chunks);
    }
    const lines = text.split("\r\n");
    expect(lines[0]).toBe("n,name");
    expect(lines).toHaveLength(pages * pageSize + 2); // header, rows, and the empty string after the last CRLF
    expect(lines[pages * pageSize]).toBe(`${pages * pageSize - 1},row ${pages * pageSize - 1}`);
    expect(fetched).toBe(pages); // 119 further pages and one empty read at the end
  });

  it("stops after a short page without another read", async () => {
    let fetched = 0;
    const stream = csvStream([{ header: "n", cell: (row: number) => row }], 10, [1, 2, 3], async () => {
      fetched++;
      return [];
    });
    expect(await new Response(stream).text()).toBe("n\r\n1\r\n2\r\n3\r\n");
    expect(fetched).toBe(0);
  });
});
