import { gs1CheckDigit } from "./check-digit";
import { readGs1 } from "./element-string";

/**
 * The company prefix of SSCCs of a tenant without a `gs1CompanyPrefix`: GS1's 020-029 range is for
 * restricted, in-company circulation, so these never clash with a real company's codes
 * (docs/decisions/fulfilment.md).
 */
export const INTERNAL_COMPANY_PREFIX = "0200000";

/** The extension digit of every SSCC we build (free for the company to use; 0 throughout). */
const EXTENSION_DIGIT = "0";

/** How many serial references a company prefix leaves (the prefix and the serial fill 16 digits). */
export const ssccSerialCapacity = (companyPrefix: string) => 10 ** (16 - companyPrefix.length);

/** The SSCC-18 of a package: extension digit, company prefix, serial reference (zero-padded), check digit. */
export function sscc(companyPrefix: string | null, serialReference: number): string {
  const prefix = companyPrefix ?? INTERNAL_COMPANY_PREFIX;
  const width = 16 - prefix.length;
  if (!Number.isSafeInteger(serialReference) || serialReference < 0 || serialReference >= 10 ** width) {
    throw new RangeError(`serial reference ${serialReference} does not fit ${width} digits`);
  }
  const body = `${EXTENSION_DIGIT}${prefix}${String(serialReference).padStart(width, "0")}`;
  return `${body}${gs1CheckDigit(body)}`;
}

/**
 * The SSCC a scanned code names: 18 digits, or a GS1 element string holding only its `00` application identifier
 * (`00` and the 18 digits, bracketed or after a symbology identifier; read by `readGs1`, as the scan screens read it).
 */
export function ssccOf(code: string): string | null {
  if (/^\d{18}$/.test(code)) return code;
  const reading = readGs1(code) ?? (/^00\d{18}$/.test(code) ? readGs1(`(00)${code.slice(2)}`) : null);
  if (!reading?.ok || reading.data.elements.length !== 1) return null;
  return reading.data.sscc ?? null;
}
