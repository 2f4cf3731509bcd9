import { eq, is, SQL } from "drizzle-orm";
import { uuidv7 } from "uuidv7";
import type { TenantDb } from "../db/client";
import { products, warehouses } from "../db/schema/tenant";
import { inTenant, inTenantAmong } from "../db/tenant-scope";
import { AppError, conflict, notFound } from "../http/errors";
import { validationError } from "../http/validation";
import { MAX_ORDER_TOTAL, toE4 } from "../money";
import type { OrderLineRow } from "../order-core/records";
import { totalE4Of } from "../order-core/records";
import type { LotWanted, ProductIds, TrackedProduct } from "../stock";
import { MAX_SERIALS_PER_LINE, MAX_SERIALS_PER_REQUEST } from "../stock/schemas";

export function productsQuery(tdb: TenantDb, productIds: ProductIds) {
  return tdb.db
    .select({
      id: products.id,
      sku: products.sku,
      status: products.status,
      tracking: products.tracking,
      merchantId: products.merchantId,
      type: products.type,
    })
    .from(products)
    .where(inTenantAmong(tdb, products, is(productIds, SQL) ? productIds : [...new Set(productIds)]));
}

export function warehouseQuery(tdb: TenantDb, warehouseId: string | undefined) {
  return tdb.db
    .select({ id: warehouses.id })
    .from(warehouses)
    .where(inTenant(tdb, warehouses, eq(warehouses.id, warehouseId ?? "")));
}

/** Every line's product must exist in the tenant (404) and be Active (409), each problem named. */
export function assertOrderable(
  lines: readonly { productId: string }[],
  found: readonly { id: string; sku: string; status: string }[],
): void {
  const byId = new Map(found.map((p) => [p.id, p]));
  const missing = lines.flatMap((line, i) =>
    byId.has(line.productId) ? [] : [`lines[${i}].productId: product ${line.productId} not found`],
  );
  if (missing.length) throw new AppError("NOT_FOUND", "Product not found", { errors: missing });
  const inactive = lines.flatMap((line, i) => {
    const product = byId.get(line.productId);
    return product?.status === "Inactive"
      ? [`lines[${i}].productId: product ${product.sku} is Inactive and cannot be ordered`]
      : [];
  });
  if (inactive.length) throw conflict("Inactive products cannot be ordered", inactive);
}

/** A purchase order buys stocked products: a kit is bought as its components (400). */
export function assertStocked(
  lines: readonly { productId: string }[],
  found: readonly { id: string; sku: string; type: string }[],
): void {
  const kits = new Map(found.filter((p) => p.type === "kit").map((p) => [p.id, p.sku]));
  const problems = lines.flatMap((line, i) => {
    const sku = kits.get(line.productId);
    return sku ? [`lines[${i}].productId: ${sku} is a kit: it never holds stock (order its components)`] : [];
  });
  if (problems.length) throw validationError(problems);
}

/**
 * The merchant of every line's product (null: the tenant's own goods): an order never mixes merchants, since
 * each merchant sees, ships and is billed for its own orders whole (400 naming the lines otherwise).
 */
export function merchantOfLines(
  lines: readonly { productId: string }[],
  found: readonly { id: string; sku: string; merchantId: string | null }[],
): string | null {
  const byId = new Map(found.map((p) => [p.id, p]));
  const merchantOf = (i: number) => byId.get(lines[i]?.productId ?? "")?.merchantId ?? null;
  const first = merchantOf(0);
  const mixed = lines.flatMap((line, i) =>
    merchantOf(i) === first
      ? []
      : [
          `lines[${i}].productId: product ${byId.get(line.productId)?.sku} belongs to ${merchantOf(i) ? `merchant ${merchantOf(i)}` : "no merchant"}, lines[0]'s to ${first ? `merchant ${first}` : "no merchant"}; an order may not mix merchants`,
        ],
  );
  if (mixed.length) throw validationError(mixed);
  return first;
}

/**
 * A sales order's serial-tracked units are shipped in one request naming each unit's serial number (at most
 * MAX_SERIALS_PER_LINE a line, MAX_SERIALS_PER_REQUEST in all), and those serials travel in the order's
 * events: an order that could never be shipped within them is a 400 now rather than stuck in `picking`.
 */
export function assertShippableSerials(
  lines: readonly { productId: string; quantity: number }[],
  found: readonly { id: string; tracking: string }[],
): void {
  const serialTracked = new Set(found.filter((p) => p.tracking === "serial").map((p) => p.id));
  const problems = lines.flatMap((line, i) =>
    serialTracked.has(line.productId) && line.quantity > MAX_SERIALS_PER_LINE
      ? [
          `lines[${i}].quantity: a serial-tracked line ships at most ${MAX_SERIALS_PER_LINE} units (one serial number each): split it into several lines`,
        ]
      : [],
  );
  const units = lines.reduce((sum, line) => sum + (serialTracked.has(line.productId) ? line.quantity : 0), 0);
  if (units > MAX_SERIALS_PER_REQUEST) {
    problems.push(
      `lines: an order ships at most ${MAX_SERIALS_PER_REQUEST} serial-tracked units (${units} here): split it into several orders`,
    );
  }
  if (problems.length) throw validationError(problems);
}

/**
 * The lots sales lines are pinned to (a 400 for a pin on a product that is not lot-tracked), for
 * checking that they exist.
 */
export function assertPinnedLots(
  lines: readonly { productId: string; lotNumber?: string }[],
  found: readonly TrackedProduct[],
): LotWanted[] {
  const byId = new Map(found.map((p) => [p.id, p]));
  const pinned = lines.flatMap((line, i) => {
    const product = byId.get(line.productId);
    return product && line.lotNumber !== undefined ? [{ i, product, lotNumber: line.lotNumber }] : [];
  });
  const wrong = pinned.flatMap(({ i, product }) =>
    product.tracking === "lot" ? [] : [`lines[${i}].lotNumber: product ${product.sku} is not lot-tracked`],
  );
  if (wrong.length) throw validationError(wrong);
  return pinned.map(({ i, product, lotNumber }) => ({
    productId: product.id,
    sku: product.sku,
    lotNumber,
    field: `lines[${i}].`,
  }));
}

export function assertWarehouse(found: readonly unknown[]): void {
  if (found.length === 0) throw notFound("Warehouse");
}

/** The order's line rows with exact money, and the order total; 400 if the total is too large to be exact. */
export function lineRows(
  tenantId: string,
  orderId: string,
  lines: readonly { productId: string; quantity: number; unitPrice: number; lotNumber?: string }[],
): { rows: OrderLineRow[]; totalE4: number } {
  const rows = lines.map((line, i) => ({
    id: uuidv7(),
    tenantId,
    orderId,
    lineNo: i + 1,
    productId: line.productId,
    quantity: line.quantity,
    // The schema admits only amounts with at most 4 decimals, so this is defined.
    unitPriceE4: toE4(line.unitPrice) ?? 0,
    receivedQuantity: 0,
    shippedQuantity: 0,
    backorderedQuantity: 0,
    lotNumber: line.lotNumber ?? null,
    lots: null,
    serialNumbers: null,
    kitLineId: null,
  }));
  const totalE4 = totalE4Of(rows);
  if (totalE4 === undefined)
    throw validationError([`lines: the order total must be at most ${MAX_ORDER_TOTAL}`]);
  return { rows, totalE4 };
}
