import { getTableColumns, sql } from "drizzle-orm";
import { products } from "../db/schema/tenant";
import type { ProductRow } from "./records";
import type { KitComponent, Packaging } from "./schemas";

// A product's parts as stored: a kit's components and a stocked product's packagings, each in its own table.

export interface ProductParts {
  components: KitComponent[];
  packagings: (Packaging & { barcode: string | null })[];
}

export const noParts: ProductParts = { components: [], packagings: [] };

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
