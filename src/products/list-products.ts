import { and, count, eq, gte, lt, type SQL, sql } from "drizzle-orm";
import type { TenantDb } from "../db/client";
import { merchantCondition } from "../db/merchant-scope";
import { readPage, sortedBy } from "../db/pages";
import { productCounts, products } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import { offsetOf } from "../http/pagination";
import { productWithParts, withParts } from "../product-core/parts";
import { productRecord } from "../product-core/records";
import { DEFAULT_PRODUCT_SORT, type ListProductsQuery, SYNC_SORT } from "./schemas";

const sortColumns = {
  sku: products.sku,
  name: products.name,
  price: products.priceE4,
  createdAt: products.createdAt,
  updatedAt: products.updatedAt,
};

/** Every upper/lower-case spelling of a short term ("ba": ba, bA, Ba, BA). */
function caseVariants(term: string): string[] {
  let variants = [""];
  for (const char of term) {
    const forms = [...new Set([char.toLowerCase(), char.toUpperCase()])];
    variants = variants.flatMap((variant) => forms.map((form) => variant + form));
  }
  return variants;
}

/**
 * The smallest string above every string starting with `prefix` (code point order is D1's binary order),
 * or undefined when there is none (every character is U+10FFFF).
 */
function afterPrefix(prefix: string): string | undefined {
  const chars = Array.from(prefix);
  for (let last = chars.pop(); last !== undefined; last = chars.pop()) {
    const code = last.codePointAt(0) ?? 0;
    // Skip the surrogate block: those code points are not valid text.
    if (code < 0x10ffff) return chars.join("") + String.fromCodePoint(code === 0xd7ff ? 0xe000 : code + 1);
  }
  return undefined;
}

/**
 * Search through the FTS5 trigram index (migration 0002); the outer query keeps the tenant's rows.
 * Terms shorter than 3 characters cannot use trigrams; they match as case-insensitive prefixes, read as
 * ranges of the tenant's sku, name and barcode indexes (one per spelling) so they never scan the table.
 */
function searchCondition(tdb: TenantDb, term: string): SQL {
  if (term.length < 3) {
    const columns = /^\d+$/.test(term)
      ? [products.sku, products.name, products.barcode]
      : [products.sku, products.name]; // a barcode is digits only
    // OR of IN lists rather than one UNION: D1 caps the terms of a compound SELECT; SQLite reads each list by index.
    const ranges = caseVariants(term).flatMap((prefix) => {
      const after = afterPrefix(prefix);
      return columns.map((column) => {
        const range = inTenant(
          tdb,
          products,
          gte(column, prefix),
          after === undefined ? undefined : lt(column, after),
        );
        return sql`${products}.rowid in (select rowid from ${products} where ${range})`;
      });
    });
    return sql`(${sql.join(ranges, sql` or `)})`;
  }
  const phrase = (value: string) => `"${value.replaceAll('"', '""')}"`;
  const match = phrase(term);
  return sql`${products}.rowid in (select rowid from products_fts where products_fts match ${match})`;
}

/** `GET /products`: a page of products with their parts, filtered, searched and sorted. */
export async function listProducts(tdb: TenantDb, query: ListProductsQuery) {
  const filters = [
    query.category ? eq(products.category, query.category) : undefined,
    query.status ? eq(products.status, query.status) : undefined,
    query.merchantId ? eq(products.merchantId, query.merchantId) : undefined,
    query.updatedSince ? gte(products.updatedAt, new Date(query.updatedSince).toISOString()) : undefined,
    query.search ? searchCondition(tdb, query.search) : undefined,
  ].filter((f): f is SQL => f !== undefined);
  // A search yields its matches' rowids: unary + keeps SQLite from walking the tenant's index
  // (to avoid a sort) and testing every row against the match set; it looks the matches up instead.
  const where = query.search
    ? and(sql`+${products.tenantId} = ${tdb.tenantId}`, merchantCondition(tdb, products), ...filters)
    : inTenant(tdb, products, ...filters);
  const sort = query.updatedSince && query.sort === DEFAULT_PRODUCT_SORT ? SYNC_SORT : query.sort;
  // Unfiltered, the total comes from the trigger-maintained counter instead of counting every row.
  const page = await readPage(tdb, query, {
    rows: tdb.db
      .select(productWithParts)
      .from(products)
      .where(where)
      .orderBy(...sortedBy(sortColumns, products.id, sort))
      .limit(query.pageSize)
      .offset(offsetOf(query)),
    count:
      // The tenant's counter counts every merchant's products: a merchant-scoped handle counts its own.
      filters.length === 0 && !tdb.merchantId
        ? tdb.db
            .select({ value: productCounts.count })
            .from(productCounts)
            .where(inTenant(tdb, productCounts))
        : tdb.db.select({ value: count() }).from(products).where(where),
  });
  return {
    ...page,
    items: page.items.map((item) => {
      const { row, parts } = withParts(item);
      return productRecord(row, parts);
    }),
  };
}
