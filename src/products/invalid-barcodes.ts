import { asc, count, isNotNull } from "drizzle-orm";
import type { TenantDb } from "../db/client";
import { readPage } from "../db/pages";
import { products } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import { badGtinSql, gtinProblem } from "../gs1/gtin";
import type { PageQuery } from "../http/pagination";

/**
 * The read-only check of stored barcodes: products whose barcode reads as a GTIN (8, 12, 13 or 14 digits) with a
 * wrong check digit, stored before the check existed. Nothing is rewritten; each item says what is wrong.
 */
export function listInvalidBarcodes(tdb: TenantDb, query: PageQuery) {
  const where = inTenant(tdb, products, isNotNull(products.barcode), badGtinSql(products.barcode));
  return readPage(
    tdb,
    query,
    {
      rows: tdb.db
        .select({ id: products.id, sku: products.sku, name: products.name, barcode: products.barcode })
        .from(products)
        .where(where),
      order: [asc(products.sku), asc(products.id)],
      count: tdb.db.select({ value: count() }).from(products).where(where),
    },
    (row) => {
      const barcode = row.barcode ?? "";
      return {
        productId: row.id,
        sku: row.sku,
        name: row.name,
        barcode,
        problem: gtinProblem(barcode) ?? "",
      };
    },
  );
}
