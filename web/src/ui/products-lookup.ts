import { ApiError, api, type Schemas, unwrap } from "../api/client";
import { useById } from "./by-id";

export type Product = Schemas["Product"];

/** The product whose SKU or barcode is exactly `code` (a typed or scanned code), or a 404-like ApiError. */
export async function productByCode(code: string): Promise<Product> {
  const wanted = code.trim();
  const { items } = await unwrap(
    api.GET("/api/v1/products", { params: { query: { search: wanted, pageSize: 20 } } }),
  );
  const found = items.find((p) => p.sku === wanted || p.barcode === wanted);
  if (!found) throw new ApiError(`No product has the SKU or barcode ${wanted}`, 404);
  return found;
}

/** The products a page names (an order's, a ledger page's), by id, in one request. */
export const useProductsById = (ids: string[]) =>
  useById(ids, async (some) => {
    const page = await unwrap(
      api.GET("/api/v1/products", { params: { query: { ids: some.join(","), pageSize: some.length } } }),
    );
    return page.items;
  });
