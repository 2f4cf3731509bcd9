import { gs1CheckDigit } from "./check-digit";

// GS1 element strings (GS1 General Specifications, section 7.8): what a GS1-128, GS1 DataMatrix, GS1 QR or
// GS1 DataBar code carries, a run of Application Identifiers (AIs) each followed by its value, a variable-length
// value ended by FNC1, which a scanner transmits as the ASCII group separator (GS, 0x1D). One parser for the API
// and the web app (web/src/scan imports this file), so a code reads the same wherever it is scanned.

/** The group separator a scanner sends for FNC1 between elements. */
export const GS = "\x1d";

type Kind = "digits" | "text" | "date" | "checked";

interface AiSpec {
  /** What the AI says, for messages. */
  title: string;
  kind: Kind;
  /** A fixed length, or the most characters a variable-length value may have. */
  length: number;
  fixed: boolean;
}

const fixed = (title: string, kind: Kind, length: number): AiSpec => ({ title, kind, length, fixed: true });
const upTo = (title: string, kind: Kind, length: number): AiSpec => ({ title, kind, length, fixed: false });

/**
 * The AIs read here: those a warehouse scans (logistic units, trade items, lots, dates, serials, counts, orders,
 * locations, weights). An AI not in this table makes the code unreadable, since its length is unknown.
 */
const AIS: Record<string, AiSpec> = {
  "00": fixed("SSCC", "checked", 18),
  "01": fixed("GTIN", "checked", 14),
  "02": fixed("GTIN of contained trade items", "checked", 14),
  "10": upTo("batch or lot number", "text", 20),
  "11": fixed("production date", "date", 6),
  "12": fixed("due date", "date", 6),
  "13": fixed("packaging date", "date", 6),
  "15": fixed("best before date", "date", 6),
  "16": fixed("sell by date", "date", 6),
  "17": fixed("expiration date", "date", 6),
  "20": fixed("internal product variant", "digits", 2),
  "21": upTo("serial number", "text", 20),
  "22": upTo("consumer product variant", "text", 20),
  "30": upTo("variable count", "digits", 8),
  "37": upTo("count of trade items", "digits", 8),
  "240": upTo("additional product identification", "text", 30),
  "241": upTo("customer part number", "text", 30),
  "250": upTo("secondary serial number", "text", 30),
  "400": upTo("customer's purchase order number", "text", 30),
  "410": fixed("ship to / deliver to GLN", "checked", 13),
  "414": fixed("GLN of a physical location", "checked", 13),
  ...Object.fromEntries(
    [0, 1, 2, 3, 4, 5].flatMap((decimals) => [
      [`310${decimals}`, fixed("net weight (kg)", "digits", 6)],
      [`330${decimals}`, fixed("gross weight (kg)", "digits", 6)],
    ]),
  ),
};

/** GS1's character set 82 (General Specifications, figure 7.11-1): what a text value may hold. */
const CSET82 = /^[!"%&'()*+,\-./0-9:;<=>?A-Z_a-z]+$/;

/** What a GS1 code says, the AIs a warehouse acts on by name; `elements` has every element as read. */
export interface Gs1Data {
  elements: { ai: string; value: string }[];
  sscc?: string;
  gtin?: string;
  /** AI 02: the GTIN of the trade items a logistic unit contains (with `count`, how many). */
  contentGtin?: string;
  lot?: string;
  serial?: string;
  count?: number;
  /** Dates as YYYY-MM-DD. */
  productionDate?: string;
  bestBefore?: string;
  expiry?: string;
}

export type Gs1Reading = { ok: true; data: Gs1Data } | { ok: false; problem: string };

// Symbology identifiers (ISO/IEC 15424) of the GS1 symbologies, which a scanner may send first.
const SYMBOLOGY = /^\](?:C1|d2|Q3|e0|J1)/;

const daysIn = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

/**
 * A YYMMDD date as YYYY-MM-DD, or null when it is no date. The century follows GS1's rule (General
 * Specifications 7.12): a year more than 50 ahead of `today`'s is last century's, one more than 49 behind is
 * next century's. A day of 00 means the last day of the month (allowed for every date AI).
 */
export function gs1Date(yymmdd: string, today = new Date()): string | null {
  if (!/^\d{6}$/.test(yymmdd)) return null;
  const yy = Number(yymmdd.slice(0, 2));
  const month = Number(yymmdd.slice(2, 4));
  let day = Number(yymmdd.slice(4, 6));
  const current = today.getUTCFullYear();
  const difference = yy - (current % 100);
  const century = Math.floor(current / 100) + (difference >= 51 ? -1 : difference <= -50 ? 1 : 0);
  const year = century * 100 + yy;
  if (month < 1 || month > 12) return null;
  const last = daysIn(year, month);
  if (day === 0) day = last;
  if (day > last) return null;
  return `${year}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}

/** What is wrong with one element's value, or null. */
function valueProblem(ai: string, spec: AiSpec, value: string, today: Date): string | null {
  const named = `(${ai}) ${spec.title}`;
  if (value.length === 0) return `${named} is empty`;
  if (spec.fixed && value.length !== spec.length) return `${named} must have ${spec.length} digits`;
  if (value.length > spec.length) return `${named} must have at most ${spec.length} characters`;
  if (spec.kind === "text")
    return CSET82.test(value) ? null : `${named} holds a character GS1 does not allow`;
  if (!/^\d+$/.test(value)) return `${named} must be digits`;
  if (spec.kind === "checked") {
    const expected = gs1CheckDigit(value.slice(0, -1));
    return Number(value.at(-1)) === expected
      ? null
      : `${named} ${value}: its check digit should be ${expected}`;
  }
  if (spec.kind === "date" && !gs1Date(value, today)) return `${named} ${value} is not a date (YYMMDD)`;
  return null;
}

/** The elements of a bracketed human-readable string, `(01)09506000134352(17)201231(10)ABC`. */
function bracketed(text: string): { ai: string; value: string }[] | string {
  const elements: { ai: string; value: string }[] = [];
  const pattern = /\((\d{2,4})\)([^(]*)/gy;
  let match: RegExpExecArray | null = pattern.exec(text);
  let read = 0;
  while (match) {
    elements.push({ ai: match[1] as string, value: match[2] as string });
    read = pattern.lastIndex;
    match = pattern.exec(text);
  }
  return read === text.length ? elements : `cannot read the code after "${text.slice(0, read)}"`;
}

/** The elements of a raw element string: fixed-length values end by their length, others at GS or the end. */
function raw(text: string): { ai: string; value: string }[] | string {
  const elements: { ai: string; value: string }[] = [];
  let at = 0;
  while (at < text.length) {
    if (text[at] === GS) {
      at++; // a separator after a fixed-length value, or a leading FNC1: allowed, meaningless
      continue;
    }
    const ai = [2, 3, 4].map((n) => text.slice(at, at + n)).find((candidate) => AIS[candidate]);
    if (!ai) return `unknown application identifier at "${text.slice(at, at + 4)}"`;
    const spec = AIS[ai] as AiSpec;
    const start = at + ai.length;
    let end: number;
    if (spec.fixed) end = start + spec.length;
    else {
      const separator = text.indexOf(GS, start);
      end = separator === -1 ? text.length : separator;
    }
    elements.push({ ai, value: text.slice(start, Math.min(end, text.length)) });
    at = end;
  }
  return elements;
}

/** Whether a plain string (no separator, no brackets) is worth reading as an element string at all. */
function looksLikeElementString(text: string): boolean {
  const checked = (value: string) => Number(value.at(-1)) === gs1CheckDigit(value.slice(0, -1));
  if (/^0[12]\d{14}/.test(text)) return checked(text.slice(2, 16));
  if (/^00\d{18}/.test(text)) return text.length > 20 ? checked(text.slice(2, 20)) : false;
  return false;
}

/**
 * A scanned code read as a GS1 element string: null when it is none (a plain barcode, SKU or bin code, which are
 * looked up as they are), else its elements or why it cannot be read. It is one when it starts with a GS1
 * symbology identifier (`]C1`, `]d2`, `]Q3`, `]e0`, `]J1`) or FNC1, is bracketed (`(01)...`), holds a GS, or
 * starts with (01) or (02) and a GTIN-14 whose check digit is right (or (00) and an SSCC followed by more).
 * A lone GTIN-14 or SSCC-18 without its AI is a plain code.
 */
export function readGs1(scan: string, today = new Date()): Gs1Reading | null {
  let text = scan.trim();
  const flagged = SYMBOLOGY.test(text);
  if (flagged) text = text.slice(3);
  const isBracketed = /^\(\d{2,4}\)/.test(text);
  if (!flagged && !isBracketed && !text.includes(GS) && !looksLikeElementString(text)) return null;
  const elements = isBracketed ? bracketed(text) : raw(text);
  if (typeof elements === "string") return { ok: false, problem: `Not a readable GS1 code: ${elements}` };
  if (elements.length === 0) return { ok: false, problem: "Not a readable GS1 code: it holds no element" };
  const data: Gs1Data = { elements };
  for (const { ai, value } of elements) {
    const spec = AIS[ai];
    if (!spec)
      return { ok: false, problem: `Not a readable GS1 code: unknown application identifier (${ai})` };
    const problem = valueProblem(ai, spec, value, today);
    if (problem) return { ok: false, problem: `Not a valid GS1 code: ${problem}` };
    if (elements.filter((e) => e.ai === ai).length > 1 && elements.find((e) => e.ai === ai)?.value !== value)
      return { ok: false, problem: `Not a valid GS1 code: (${ai}) ${spec.title} appears twice` };
    const date = spec.kind === "date" ? (gs1Date(value, today) as string) : undefined;
    if (ai === "00") data.sscc = value;
    else if (ai === "01") data.gtin = value;
    else if (ai === "02") data.contentGtin = value;
    else if (ai === "10") data.lot = value;
    else if (ai === "21") data.serial = value;
    else if (ai === "37") data.count = Number(value);
    else if (ai === "11") data.productionDate = date;
    else if (ai === "15") data.bestBefore = date;
    else if (ai === "17") data.expiry = date;
  }
  if (data.gtin && data.contentGtin)
    return { ok: false, problem: "Not a valid GS1 code: (01) and (02) must not appear together" };
  return { ok: true, data };
}
