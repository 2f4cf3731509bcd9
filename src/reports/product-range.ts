import { and, asc, eq, gt, lte, type SQL } from "drizzle-orm";
import type { TenantDb } from "../db/client";
import { products, warehouses } from "../db/schema";
import type { CsvPage } from "./csv";

/** How many products a CSV page of a per-product report covers. */
export const PRODUCTS_PER_PAGE = 500;

/**
 * The next PRODUCTS_PER_PAGE products by SKU after `afterSku`, as a condition on `products.sku`, and the
 * cursor after them (null when this range reaches the end). One indexed read of at most 500 SKUs, so a
 * CSV page of a report grouped per product costs its own size, not the whole catalog's.
 */
export async function nextSkuRange(
  { db, tenantId }: TenantDb,
  afterSku: string | null,
): Promise<{ condition: SQL | undefined; next: string | null }> {
  const after = afterSku === null ? undefined : gt(products.sku, afterSku);
  const [last] = await db
    .select({ sku: products.sku })
    .from(products)
    .where(and(eq(products.tenantId, tenantId), after))
    .orderBy(asc(products.sku))
    .limit(1)
    .offset(PRODUCTS_PER_PAGE - 1);
  return last
    ? { condition: and(after, lte(products.sku, last.sku)), next: last.sku }
    : { condition: after, next: null };
}

/**
 * A CSV page of a report grouped per product and warehouse: the lines of the next SKU range, by SKU
 * then warehouse code. `lines` reads the report restricted to a range condition on `products.sku`.
 */
export async function skuRangePage<Line, Row>(
  tenantDb: TenantDb,
  afterSku: string | null,
  lines: (skuRange: SQL | undefined) => {
    orderBy(...columns: SQL[]): PromiseLike<Line[]>;
  },
  toRow: (line: Line) => Row,
): Promise<CsvPage<Row, string>> {
  const range = await nextSkuRange(tenantDb, afterSku);
  const rows = await lines(range.condition).orderBy(asc(products.sku), asc(warehouses.code));
  return { rows: rows.map(toRow), next: range.next };
}
