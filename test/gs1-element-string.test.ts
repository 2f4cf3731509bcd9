import { describe, expect, it } from "vitest";
import { GS, gs1Date, readGs1 } from "../src/gs1/element-string";
import { gtinSpellings } from "../src/gs1/gtin-spellings";
import { ssccOf } from "../src/gs1/sscc";

const today = new Date("2026-11-29T12:00:00Z");
const read = (scan: string) => readGs1(scan, today);

describe("GS1 element strings", () => {
  it("reads GTIN, lot and expiry from one GS1-128 scan, raw with a group separator or bracketed", () => {
    const expected = {
      ok: true,
      data: {
        gtin: "09506000134352",
        expiry: "2027-05-31",
        lot: "L-77",
        elements: [
          { ai: "01", value: "09506000134352" },
          { ai: "17", value: "270531" },
          { ai: "10", value: "L-77" },
        ],
      },
    };
    expect(read("01095060001343521727053110L-77")).toEqual(expected);
    expect(read("(01)09506000134352(17)270531(10)L-77")).toEqual(expected);
    // The symbology identifier a scanner may send first (GS1-128, GS1 DataMatrix), and a leading FNC1.
    expect(read("]C101095060001343521727053110L-77")).toEqual(expected);
    expect(read(`]d2${GS}01095060001343521727053110L-77`)).toEqual(expected);
  });

  it("ends a variable-length value at the group separator and reads SSCC, content, count and serial", () => {
    const scan = `00106141411234567897${"02"}09506000134352${"37"}24${GS}10LOT 9${GS}21SN-1`;
    const reading = read(scan);
    expect(reading?.ok).toBe(false); // a space is not in GS1's character set 82
    const good = read(`0010614141123456789702095060001343523724${GS}10LOT-9${GS}21SN-1`);
    expect(good).toMatchObject({
      ok: true,
      data: {
        sscc: "106141411234567897",
        contentGtin: "09506000134352",
        count: 24,
        lot: "LOT-9",
        serial: "SN-1",
      },
    });
    // The serial last: no separator needed at the end.
    expect(read(`0109506000134352${"21"}ABC123`)).toMatchObject({ ok: true, data: { serial: "ABC123" } });
    // A separator after a fixed-length value is tolerated.
    expect(read(`0109506000134352${GS}17270531`)).toMatchObject({ ok: true, data: { expiry: "2027-05-31" } });
  });

  it("refuses impossible dates, wrong check digits and unknown identifiers, naming the element", () => {
    expect(read("(01)09506000134352(17)270230")).toEqual({
      ok: false,
      problem: "Not a valid GS1 code: (17) expiration date 270230 is not a date (YYMMDD)",
    });
    expect(read("(01)09506000134353")).toEqual({
      ok: false,
      problem: "Not a valid GS1 code: (01) GTIN 09506000134353: its check digit should be 2",
    });
    expect(read("(01)09506000134352(99)X")).toEqual({
      ok: false,
      problem: "Not a readable GS1 code: unknown application identifier (99)",
    });
    expect(read(`]C1${"9912"}`)?.ok).toBe(false);
    expect(read(`(10)${"A".repeat(21)}`)?.ok).toBe(false);
  });

  it("leaves plain codes alone: EAN-13, a lone GTIN-14 or SSCC, SKUs and bin codes", () => {
    for (const plain of ["2000000000015", "12000000000029", "006141411234567890", "MUG-1", "A-01-03", "0112"])
      expect(read(plain)).toBeNull();
  });

  it("reads YYMMDD dates with GS1's century rule and day 00 as the month's last day", () => {
    expect(gs1Date("270531", today)).toBe("2027-05-31");
    expect(gs1Date("280200", today)).toBe("2028-02-29"); // leap year, day 00
    expect(gs1Date("270200", today)).toBe("2027-02-28");
    expect(gs1Date("270229", today)).toBeNull();
    expect(gs1Date("271301", today)).toBeNull();
    // From 2026: up to 50 years ahead is this century, 51 ahead is the last one.
    expect(gs1Date("760101", today)).toBe("2076-01-01");
    expect(gs1Date("770101", today)).toBe("1977-01-01");
  });
});

describe("one GTIN, several spellings", () => {
  it("names the stored EAN-13, UPC-A and GTIN-8 of a GTIN-14 with leading zeros", () => {
    expect(gtinSpellings("02000000000015")).toEqual(["02000000000015", "2000000000015"]);
    expect(gtinSpellings("2000000000015")).toEqual(["02000000000015", "2000000000015"]);
    expect(gtinSpellings("00000096385074")).toEqual([
      "00000096385074",
      "0000096385074",
      "000096385074",
      "96385074",
    ]);
    // Not a GTIN (a wrong check digit, other lengths, letters): only itself.
    expect(gtinSpellings("2000000000016")).toEqual(["2000000000016"]);
    expect(gtinSpellings("MUG-1")).toEqual(["MUG-1"]);
  });

  it("finds an SSCC in a bracketed, prefixed or bare code, and nothing in a wrong one", () => {
    expect(ssccOf("(00)106141411234567897")).toBe("106141411234567897");
    expect(ssccOf("]C100106141411234567897")).toBe("106141411234567897");
    expect(ssccOf("00106141411234567897")).toBe("106141411234567897");
    expect(ssccOf("00106141411234567898")).toBeNull();
  });
});
