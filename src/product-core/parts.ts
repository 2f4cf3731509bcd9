import { asc, getTableColumns, sql } from "drizzle-orm";
import { inJsonArray, runBatch } from "../db/batch";
import type { TenantDb } from "../db/client";
import { kitComponents, productPackagings, products } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import type { ProductRow } from "./records";
import type { KitComponent, Packaging } from "./schemas";

// A product's parts as stored: a kit's components and a stocked product's packagings, each in its own table.

export interface ProductParts {
  components: KitComponent[];
  packagings: (Packaging & { barcode: string | null })[];
}

export const noParts: ProductParts = { components: [], packagings: [] };

/** The parts of products already read (a bulk write's), by product id, in one round trip (none: no parts). */
export async function readParts(tdb: TenantDb, ids: readonly string[]): Promise<Map<string, ProductParts>> {
  const parts = new Map<string, ProductParts>();
  if (ids.length === 0) return parts;
  const read = await runBatch(tdb, {
    components: tdb.db
      .select()
      .from(kitComponents)
      .where(inTenant(tdb, kitComponents, inJsonArray(kitComponents.kitId, ids)))
      .orderBy(asc(kitComponents.kitId), asc(sql`rowid`)),
    packagings: tdb.db
      .select()
      .from(productPackagings)
      .where(inTenant(tdb, productPackagings, inJsonArray(productPackagings.productId, ids)))
      .orderBy(asc(productPackagings.productId), asc(productPackagings.quantity)),
  });
  const of = (id: string) => {
    const found = parts.get(id) ?? { components: [], packagings: [] };
    parts.set(id, found);
    return found;
  };
  for (const c of read.components)
    of(c.kitId).components.push({ productId: c.componentId, quantity: c.quantity });
  for (const p of read.packagings)
    of(p.productId).packagings.push({ code: p.code, name: p.name, quantity: p.quantity, barcode: p.barcode });
  return parts;
}

/** A product and its parts, as reads and writes return them. */
export interface StoredProduct {
  row: ProductRow;
  parts: ProductParts;
}

/**
 * The parts of the product row being selected, as a JSON column of the same statement: a product, or a page of
 * them, is read with its parts in one round trip.
 */
const partsJson = sql<string>`json_object(
  'components', (select json_group_array(json_object('productId', c.component_id, 'quantity', c.quantity))
    from (select component_id, quantity from kit_components
      where tenant_id = ${products.tenantId} and kit_id = ${products.id} order by rowid) c),
  'packagings', (select json_group_array(json_object('code', p.code, 'name', p.name, 'quantity', p.quantity,
      'barcode', p.barcode))
    from (select code, name, quantity, barcode from product_packagings
      where tenant_id = ${products.tenantId} and product_id = ${products.id} order by quantity) p))`;

/** What to select for a product with its parts; `withParts` reads the selected row. */
export const productWithParts = { ...getTableColumns(products), parts: partsJson };

export const withParts = ({ parts, ...row }: ProductRow & { parts: string }): StoredProduct => ({
  row,
  parts: JSON.parse(parts) as ProductParts,
});
