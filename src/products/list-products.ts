import { and, count, eq, gte, lt, type SQL, sql } from "drizzle-orm";
import type { TenantDb } from "../db/client";
import { compiled } from "../db/compiled";
import { merchantCondition } from "../db/merchant-scope";
import { readWindow, sortedBy } from "../db/pages";
import { productCounts, products } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import { offsetOf } from "../http/pagination";
import { productWithParts, withParts } from "../product-core/parts";
import { type ProductRow, productRecord } from "../product-core/records";
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
 * A search through the FTS5 trigram index (migration 0002), of `match` (the term as an FTS5 phrase); the outer
 * query keeps the tenant's rows.
 */
const matchCondition = (match: string) =>
  sql`${products}.rowid in (select rowid from products_fts where products_fts match ${match})`;

const phrase = (term: string) => `"${term.replaceAll('"', '""')}"`;

/**
 * Terms shorter than 3 characters cannot use trigrams; they match as case-insensitive prefixes, read as ranges of
 * the tenant's sku, name and barcode indexes (one per spelling) so they never scan the table. The text depends on
 * the term (its spellings, whether it is digits): never compiled.
 */
function prefixCondition(tdb: TenantDb, term: string): SQL {
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

/** A page's values: bound per request, never part of its text (null where the filter is not given). */
interface PageValues {
  [name: string]: string | number | null;
  category: string | null;
  status: string | null;
  merchant: string | null;
  updatedSince: string | null;
  /** The `ids` filter's ids, as a JSON array. */
  ids: string | null;
  /** A trigram search's FTS5 phrase, or a short search's term (prefixes: built per request). */
  search: string | null;
  limit: number;
  offset: number;
}

/** What shapes a page's text: the sort, which filters are given and how the search reads. */
interface PageShape {
  [name: string]: string | boolean;
  field: keyof typeof sortColumns;
  direction: "asc" | "desc";
  category: boolean;
  status: boolean;
  merchant: boolean;
  updatedSince: boolean;
  ids: boolean;
  search: "none" | "match" | "prefix";
}

/** The page's conditions besides the tenant's, in the order the API has always written them. */
function filtersOf(tdb: TenantDb, v: PageValues, shape: PageShape): SQL[] {
  const search =
    shape.search === "match"
      ? matchCondition(v.search as string)
      : shape.search === "prefix"
        ? prefixCondition(tdb, v.search as string)
        : undefined;
  return [
    shape.category ? eq(products.category, v.category as string) : undefined,
    shape.status ? eq(products.status, v.status as ProductRow["status"]) : undefined,
    shape.merchant ? eq(products.merchantId, v.merchant as string) : undefined,
    shape.updatedSince ? gte(products.updatedAt, v.updatedSince as string) : undefined,
    shape.ids ? sql`${products.id} in (select value from json_each(${v.ids}))` : undefined,
    search,
  ].filter((f): f is SQL => f !== undefined);
}

function whereOf(tdb: TenantDb, v: PageValues, shape: PageShape) {
  const filters = filtersOf(tdb, v, shape);
  // A search yields its matches' rowids: unary + keeps SQLite from walking the tenant's index
  // (to avoid a sort) and testing every row against the match set; it looks the matches up instead.
  return {
    filters,
    where:
      shape.search !== "none"
        ? and(sql`+${products.tenantId} = ${tdb.tenantId}`, merchantCondition(tdb, products), ...filters)
        : inTenant(tdb, products, ...filters),
  };
}

const pageRows = (tdb: TenantDb, v: PageValues, shape: PageShape) =>
  tdb.db
    .select(productWithParts)
    .from(products)
    .where(whereOf(tdb, v, shape).where)
    .orderBy(...sortedBy(sortColumns, products.id, shape))
    .limit(v.limit)
    .offset(v.offset);

function pageCount(tdb: TenantDb, v: PageValues, shape: PageShape) {
  const { filters, where } = whereOf(tdb, v, shape);
  // Unfiltered, the total comes from the trigger-maintained counter instead of counting every row. The tenant's
  // counter counts every merchant's products: a merchant-scoped handle counts its own.
  return filters.length === 0 && !tdb.merchantId
    ? tdb.db.select({ value: productCounts.count }).from(productCounts).where(inTenant(tdb, productCounts))
    : tdb.db.select({ value: count() }).from(products).where(where);
}

// The product page is the API's most read list: its statements are built once per isolate for each shape
// (docs/decisions/compiled-statements.md); a short search's, whose text depends on the term, per request.
const compiledPageRows = compiled(pageRows);
const compiledPageCount = compiled(pageCount);

/** `GET /products`: a page of products with their parts, filtered, searched and sorted. */
export async function listProducts(tdb: TenantDb, query: ListProductsQuery) {
  const term = query.search;
  const short = term !== undefined && term.length < 3;
  const sort = query.updatedSince && query.sort === DEFAULT_PRODUCT_SORT ? SYNC_SORT : query.sort;
  const shape: PageShape = {
    field: sort.field,
    direction: sort.direction,
    category: query.category !== undefined,
    status: query.status !== undefined,
    merchant: query.merchantId !== undefined,
    updatedSince: query.updatedSince !== undefined,
    ids: query.ids !== undefined,
    search: term === undefined ? "none" : short ? "prefix" : "match",
  };
  const values: PageValues = {
    category: query.category ?? null,
    status: query.status ?? null,
    merchant: query.merchantId ?? null,
    updatedSince: query.updatedSince ? new Date(query.updatedSince).toISOString() : null,
    ids: query.ids ? JSON.stringify(query.ids) : null,
    search: term === undefined ? null : short ? term : phrase(term),
    limit: query.pageSize,
    offset: offsetOf(query),
  };
  const page = await readWindow<ReturnType<typeof pageRows> | ReturnType<typeof compiledPageRows>>(
    tdb,
    query,
    short
      ? { rows: pageRows(tdb, values, shape), count: pageCount(tdb, values, shape) }
      : { rows: compiledPageRows(tdb, values, shape), count: compiledPageCount(tdb, values, shape) },
  );
  return {
    ...page,
    items: page.items.map((item) => {
      const { row, parts } = withParts(item);
      return productRecord(row, parts);
    }),
  };
}
