import type { ScanMatch } from "./known";
import type { Scan } from "./read-scan";

/** What a scan at a quantity step counts: units, or packs of one of the product's packagings. */
export type Amount =
  | { quantity: number; units: number }
  | { packaging: string; packs: number; units: number };

/** The largest quantity a stock level holds (the API's bound): a longer number is a code, never a quantity. */
const MAX_UNITS = 1_000_000_000;

/** The product itself (one unit) or one of its packagings (one pack) among a scan's matches, or undefined. */
export function unitOf(matches: ScanMatch[], productId: string): Amount | undefined {
  for (const match of matches) {
    if (match.type === "product" && match.product.id === productId) return { quantity: 1, units: 1 };
    if (match.type === "packaging" && match.product.id === productId)
      return { packaging: match.packaging.code, packs: 1, units: match.packaging.quantity };
  }
  return undefined;
}

/**
 * What a scan at a quantity step counts for the product `sku`: a typed number up to `upTo` is that many units;
 * a code (the product's barcode or SKU, a GS1 code's GTIN) is one more unit, a packaging's barcode one more pack
 * (a case's GTIN-14 is all digits, like a number, so codes are looked up before a larger number is taken); a
 * GS1 code with a count (37) of the product's GTIN in (02) is that many units. A number naming nothing is sent
 * as units, so more than the line asks gets the API's own refusal.
 */
export async function amountOf(
  scan: Scan,
  product: { id: string; sku: string },
  upTo: number,
  resolve: (code: string) => Promise<ScanMatch[]>,
): Promise<Amount> {
  const number = scan.gs1 === null && /^\d{1,10}$/.test(scan.raw) ? Number(scan.raw) : 0;
  if (number >= 1 && number <= upTo) return { quantity: number, units: number };
  const one = unitOf(await resolve(scan.code), product.id);
  if (one && scan.gs1?.count !== undefined && "quantity" in one)
    return { quantity: scan.gs1.count, units: scan.gs1.count };
  if (one) return one;
  if (number >= 1 && number <= MAX_UNITS) return { quantity: number, units: number };
  throw new Error(
    `Quantity must be a whole number of at least 1, or a scan of ${product.sku} (one unit) or of one of its packs; scanned ${scan.raw}`,
  );
}

/** An amount as the API's body takes it (`quantity`, or `packaging` and `packs`). */
export const amountBody = (amount: Amount) =>
  "packaging" in amount
    ? { packaging: amount.packaging, packs: amount.packs }
    : { quantity: amount.quantity };
