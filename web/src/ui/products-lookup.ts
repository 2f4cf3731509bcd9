import { ApiError, api, type Schemas, unwrap } from "../api/client";
import { readById, useById } from "./by-id";

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

/** The products of these ids, in one request per 100. */
const readProducts = async (ids: string[]) => {
  const page = await unwrap(
    api.GET("/api/v1/products", { params: { query: { ids: ids.join(","), pageSize: ids.length } } }),
  );
  return page.items;
};

/** The products a page names (an order's, a ledger page's), by id, in one request. */
export const useProductsById = (ids: string[]) => useById(ids, readProducts);

/** The products of these ids, each read once (a floor work saves them to work without the network). */
export const productsOf = async (ids: string[]): Promise<Product[]> => [
  ...(await readById(ids, readProducts)).values(),
];
