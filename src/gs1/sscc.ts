import { gs1CheckDigit } from "./check-digit";

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

/** The SSCC a scanned code names: 18 digits, or 20 with the `00` application identifier in front. */
export function ssccOf(code: string): string | null {
  if (/^\d{18}$/.test(code)) return code;
  if (/^00\d{18}$/.test(code)) return code.slice(2);
  return null;
}
