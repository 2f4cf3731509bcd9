import { eq } from "drizzle-orm";
import type { TenantDb } from "../db/client";
import { products } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import { notFound } from "../http/errors";
import { productWithParts, type StoredProduct, withParts } from "../product-core/parts";

/** `GET /products/{id}` (and what a write reads first): a product and its parts, in one round trip; 404 when the tenant (or the caller's merchant) has none. */
export async function findProduct(tdb: TenantDb, id: string): Promise<StoredProduct> {
  const [found] = await tdb.db
    .select(productWithParts)
    .from(products)
    .where(inTenant(tdb, products, eq(products.id, id)))
    .limit(1);
  if (!found) throw notFound("Product");
  return withParts(found);
}
