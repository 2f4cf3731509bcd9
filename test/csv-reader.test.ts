import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readCsv } from "../src/http/csv-parse";
import { csvRecord, csvText } from "../src/http/csv-record";
import { recordsOf } from "../src/http/record-scanner";

// The import job cuts a file into records with a byte scanner and reads each alone; POST /products/import reads the
// whole text. Both must find the same records, cells, lines and problems, whatever the file (issue #44).

const awkward = fc.string({
  unit: fc.constantFrom("a", "é", " ", '"', ",", "\n", "\r", "\r\n", "'", "=", ";", "\t", "😀"),
  maxLength: 40,
});

describe("the CSV reader", () => {
  it("reads each record the scanner finds as the whole file reads it", () => {
    fc.assert(
      fc.property(awkward, (text) => {
        const bytes = new TextEncoder().encode(text);
        const alone = recordsOf(bytes, "csv", 1).flatMap(({ text: record, line }) =>
          readCsv(record ?? "", line),
        );
        expect(alone).toEqual(readCsv(text));
      }),
      { numRuns: 2000 },
    );
  });

  it("reads back every written cell as it was given, the formula guard undone", () => {
    fc.assert(
      // A record of one empty cell is a blank line, no record: every file the API writes has two columns or more.
      fc.property(fc.array(awkward, { minLength: 2, maxLength: 4 }), (cells) => {
        const [record, ...more] = readCsv(csvRecord(cells), 7);
        expect(more).toEqual([]);
        expect(record?.problem).toBeUndefined();
        expect(record?.line).toBe(7);
        expect(record?.cells.map(csvText)).toEqual(cells);
      }),
      { numRuns: 2000 },
    );
  });

  it("names the line a record starts on and where an unclosed quote opened", () => {
    expect(readCsv('a,b\r\n\r\n"x\ny",z\n"open\nmore\n')).toEqual([
      { line: 1, cells: ["a", "b"] },
      { line: 3, cells: ["x\ny", "z"] },
      {
        line: 5,
        cells: ["open\nmore\n"],
        problem: "a quote opened on line 5 is never closed (every line after it was read into one cell)",
      },
    ]);
  });
});
