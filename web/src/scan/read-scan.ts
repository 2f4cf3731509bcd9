import { GS, type Gs1Data, readGs1 } from "../../../src/gs1/element-string";

/**
 * What a keyboard-wedge scanner may be set to send for GS (FNC1 between GS1 elements): a keyboard has no key for
 * ASCII 29, so many scanners replace it. `~` is outside GS1's character set 82, so it can never be part of a GS1
 * value. Ctrl+] (the terminal's GS) typed into the scan field is taken as GS too (ui/scan-field.tsx).
 */
export const GS_SUBSTITUTE = "~";

/** One scan as the floor screens read it. */
export interface Scan {
  /** As typed or read by the camera (spaces around it removed). */
  raw: string;
  /** What to look up: a GS1 code's GTIN (or contained GTIN, or SSCC), else the scan itself. */
  code: string;
  /** A GS1 element string's data (lot, expiry, serial, count...), null for a plain code. */
  gs1: Gs1Data | null;
}

/** A scan read: a GS1 code is parsed by the API's own rules (src/gs1); one that cannot be read is refused. */
export function readScan(typed: string): Scan {
  const raw = typed.trim().replaceAll(GS_SUBSTITUTE, GS);
  const reading = readGs1(raw);
  if (!reading) return { raw: typed.trim(), code: typed.trim(), gs1: null };
  if (!reading.ok) throw new Error(reading.problem);
  const { data } = reading;
  const code = data.gtin ?? data.contentGtin ?? data.sscc ?? data.lot ?? data.serial ?? raw;
  return { raw, code, gs1: data };
}

/** A typed calendar date as YYYY-MM-DD, or null when it is none (2027-02-30 is none). */
export function calendarDate(text: string): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
    ? text
    : null;
}
