import { gs1CheckDigit } from "./check-digit";

/**
 * Every way a product's barcode may be stored for the GTIN `code` names: a GTIN is one number whatever its
 * length, left-padded with zeros to 14 digits (GS1 General Specifications 3.3.2), so the (01) of a GS1-128
 * code, `02000000000015`, names the EAN-13 `2000000000015`. For a code that is no valid GTIN (other lengths,
 * letters, a wrong check digit), just the code. The API's barcode lookup and the web app's scan screens
 * (web/src/scan) match through this one rule.
 */
export function gtinSpellings(code: string): string[] {
  if (!/^(?:\d{8}|\d{12,14})$/.test(code)) return [code];
  if (Number(code.at(-1)) !== gs1CheckDigit(code.slice(0, -1))) return [code];
  const padded = code.padStart(14, "0");
  const spellings = [14, 13, 12, 8]
    .filter((length) => /^0*$/.test(padded.slice(0, 14 - length)))
    .map((length) => padded.slice(14 - length));
  return spellings.includes(code) ? spellings : [code, ...spellings];
}
