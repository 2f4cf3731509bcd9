import { gtinSpellings } from "../../../src/gs1/gtin-spellings";
import { ApiError, type Schemas } from "../api/client";
import { type Match, resolveCode } from "./resolve";

type ProductMatch = Extract<Match, { type: "product" }>["product"];

/**
 * What a scan names, as far as a floor screen needs to know: the API's matches (GET /barcodes/{code}) have
 * these fields and more, the device's saved copy of a work has these.
 */
export type ScanMatch =
  | { type: "product"; product: ProductMatch }
  | { type: "packaging"; product: ProductMatch; packaging: { code: string; quantity: number } }
  | { type: "location"; location: { id: string; code: string; warehouseId: string } }
  | { type: "lot"; lot: { number: string; productId: string; expiresAt: string | null } };

/** The codes a floor work involves, saved with it: its products, locations and lots. */
export interface KnownCodes {
  products: Schemas["Product"][];
  locations: { id: string; code: string; warehouseId: string }[];
  lots: { number: string; productId: string; expiresAt: string | null }[];
}

/** The matches of `code` among the known codes, by the API's rules (SKU, barcode in any GTIN spelling, code). */
export function knownMatches(code: string, known: KnownCodes): ScanMatch[] {
  const barcodes = gtinSpellings(code);
  const of = (p: Schemas["Product"]): ProductMatch => ({
    id: p.id,
    sku: p.sku,
    name: p.name,
    barcode: p.barcode,
    merchantId: p.merchantId,
  });
  return [
    ...known.products.flatMap((p): ScanMatch[] =>
      p.sku === code || (p.barcode !== null && barcodes.includes(p.barcode))
        ? [{ type: "product", product: of(p) }]
        : [],
    ),
    ...known.products.flatMap((p) =>
      p.packagings
        .filter((pack) => pack.barcode !== null && barcodes.includes(pack.barcode))
        .map((packaging): ScanMatch => ({ type: "packaging", product: of(p), packaging })),
    ),
    ...known.locations
      .filter((l) => l.code === code)
      .map((location): ScanMatch => ({ type: "location", location })),
    ...known.lots.filter((l) => l.number === code).map((lot): ScanMatch => ({ type: "lot", lot })),
  ];
}

/**
 * A floor screen's lookup: the codes its work involves are answered on the device at once (no round trip, and
 * without the network); any other code is asked of the API, and without the network it names nothing. A work
 * whose known codes are all it can take (`closed`: a pick list names every bin, product, pack and lot it picks)
 * answers any other code on the device too: the server could only say what else it is, and the screen refuses
 * it either way, so a wrong scan is heard at once instead of after a round trip.
 */
export function resolverOf(known: KnownCodes, { closed = false } = {}) {
  return async (code: string): Promise<ScanMatch[]> => {
    const local = knownMatches(code, known);
    if (local.length > 0 || closed) return local;
    try {
      return (await resolveCode(code)).filter((m): m is Match & ScanMatch => m.type !== "package");
    } catch (error) {
      if (error instanceof ApiError && error.status === 0) return [];
      throw error;
    }
  };
}
