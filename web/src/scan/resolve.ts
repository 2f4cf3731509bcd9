import { ApiError, api, type Schemas, unwrap } from "../api/client";

export type Match = Schemas["BarcodeResolution"]["matches"][number];

/**
 * Every match of a code (`GET /barcodes/{code}`: a product's barcode or SKU, a packaging's barcode, a location, a
 * lot, a package's SSCC; a GTIN in any spelling); a code that names nothing has none.
 */
export async function resolveCode(code: string): Promise<Match[]> {
  try {
    const found = await unwrap(api.GET("/api/v1/barcodes/{code}", { params: { path: { code } } }));
    return found.matches;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return [];
    throw error;
  }
}
