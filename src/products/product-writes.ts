import { and, eq, exists, notInArray, sql } from "drizzle-orm";
import type { TenantDb } from "../db/client";
import { asConflict, brokenConstraint } from "../db/constraint-errors";
import { keepsKitsWhole } from "../db/kit-merchant";
import { assertMerchantNamed, unknownMerchant } from "../db/merchant-named";
import { refuseUnless } from "../db/preconditions";
import { orderLines, orders, stockLevels } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import { AppError, conflict } from "../http/errors";
import type { ProductParts } from "../product-core/parts";
import type { ProductRow } from "../product-core/records";
import { holdsStock } from "../stock";
import { barcodeTaken, type SentParts } from "./parts";
import type { CreateProductBody, ProductChanges } from "./schemas";

// What a product's single writes share: their refusals, the parts they store, the retry of a version-guarded
// write, and what stock and open orders of a product hold it.

/** 404 unless the tenant has the merchant a write names (none named: nothing to check). */
export async function assertMerchant(tdb: TenantDb, merchantId: string | null | undefined) {
  if (merchantId) await assertMerchantNamed(tdb, merchantId);
}

/**
 * A product write's refusals: a taken SKU or barcode (409), its merchant deleted meanwhile (404), a kit's
 * component deleted meanwhile (409).
 */
export function refusedProductWrite(error: unknown, merchantId: string | null): never {
  if (merchantId && brokenConstraint(error) === "foreign_key") throw unknownMerchant(merchantId);
  return asConflict(error, {
    ...duplicateProduct,
    foreign_key: "A component was deleted meanwhile; nothing was written",
  });
}

/**
 * The 409s of a SKU or barcode another product (or packaging) of the same owner already has: the tenant's own
 * goods, or one merchant's (a merchant's write never meets another merchant's codes).
 */
export const duplicateProduct = {
  products_tenant_sku_unique: "A product with this SKU already exists",
  products_tenant_merchant_sku_unique: "A product with this SKU already exists",
  products_tenant_barcode_unique: "A product with this barcode already exists",
  products_tenant_merchant_barcode_unique: "A product with this barcode already exists",
  ...barcodeTaken,
};

/** The parts a write leaves: each list sent, or as stored. */
export const sentParts = (input: CreateProductBody | ProductChanges, stored: ProductParts): ProductParts => ({
  components: input.components ?? stored.components,
  packagings: (input.packagings ?? stored.packagings).map((p) => ({ ...p, barcode: p.barcode ?? null })),
});

const one = sql`1`;
const ATTEMPTS = 3;
export const stale = () =>
  new AppError("PRECONDITION_FAILED", "The product has changed since you read it (If-Match)");

/**
 * Runs a version-guarded write until it commits (`attempt` returns its result) or fails: without If-Match a
 * concurrent writer just means reading again; with it, 412.
 */
export async function untilCommitted<T>(ifMatch: string | undefined, attempt: () => Promise<T | undefined>) {
  for (let i = 0; i < ATTEMPTS; i++) {
    const result = await attempt();
    if (result) return result;
    if (ifMatch !== undefined) throw stale();
  }
  throw conflict("The product is being changed by other requests; retry");
}

// Sales orders not yet shipped still hold or will take this product's stock.
export const openOrderLine = (tdb: TenantDb, id: string) =>
  exists(
    tdb.db
      .select({ one })
      .from(orderLines)
      .innerJoin(orders, and(eq(orders.tenantId, orderLines.tenantId), eq(orders.id, orderLines.orderId)))
      .where(
        inTenant(
          tdb,
          orderLines,
          eq(orderLines.productId, id),
          notInArray(orders.status, ["shipped", "delivered", "cancelled", "received"]),
        ),
      ),
  );
export const heldStock = (tdb: TenantDb, id: string) => holdsStock(tdb, eq(stockLevels.productId, id));

export const stockOrOpenOrders = (tdb: TenantDb, id: string) =>
  sql`(${heldStock(tdb, id)} or ${openOrderLine(tdb, id)})`;

/**
 * A write's guard that it splits no kit from its components' merchant (src/db/kit-merchant.ts), first in its batch:
 * the reads before it checked the same, but a component's or kit's merchant change may commit in between.
 */
export const kitGuard = (tdb: TenantDb, product: ProductRow, sent: SentParts) =>
  refuseUnless(
    tdb,
    keepsKitsWhole(
      tdb,
      product.id,
      product.merchantId,
      sent.components?.map((c) => c.productId),
    ),
  );
