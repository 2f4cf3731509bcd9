import { ApiError, api, type Schemas, unwrap } from "../api/client";
import { readById, useById } from "./by-id";

export type Product = Schemas["Product"];

/** Whose goods a code is looked up among: a merchant (its id and code) or, with a null id, the tenant's own. */
export interface Owner {
  merchantId: string | null;
  code: string;
}

/**
 * The product whose SKU or barcode is exactly `code` (a typed or scanned code), or a 404-like ApiError. Given an
 * owner, only that owner's products: two merchants of a 3PL may share a SKU or barcode (issue #44), and an order or
 * a kit is one owner's goods.
 */
export async function productByCode(code: string, owner?: Owner): Promise<Product> {
  const wanted = code.trim();
  const merchantId = owner?.merchantId;
  const { items } = await unwrap(
    api.GET("/api/v1/products", {
      params: { query: { search: wanted, pageSize: 20, ...(merchantId && { merchantId }) } },
    }),
  );
  const found = items.filter(
    (p) => (p.sku === wanted || p.barcode === wanted) && (!owner || p.merchantId === owner.merchantId),
  );
  // Any owner's: a code two owners share names neither until the person says whose.
  if (new Set(found.map((p) => p.merchantId)).size > 1)
    throw new ApiError(`${wanted} is the SKU or barcode of several owners' products`, 400);
  if (found[0]) return found[0];
  const among = owner
    ? ` among ${owner.merchantId ? `${owner.code}'s products` : "the tenant's own goods"}`
    : "";
  throw new ApiError(`No product has the SKU or barcode ${wanted}${among}`, 404);
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
