import { and, eq, exists, not, notInArray, type SQL, sql } from "drizzle-orm";
import { changesOf, runBatch } from "../db/batch";
import type { TenantDb } from "../db/client";
import { asConflict, brokenConstraint } from "../db/constraint-errors";
import { assertMerchantNamed, unknownMerchant } from "../db/merchant-named";
import {
  kitComponents,
  lots,
  orderLines,
  orders,
  productPackagings,
  products,
  serialNumbers,
  stockLevels,
} from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import { AppError, conflict } from "../http/errors";
import { validationError } from "../http/validation";
import { eventRow, previousStatementChanged } from "../outbox/outbox";
import { noParts, type ProductParts, type StoredProduct } from "../product-core/parts";
import { ifMatchAdmits, productRecord } from "../product-core/records";
import { changedProductRow, newProductRow } from "../product-core/rows";
import { keepDeletedLevels } from "../stock/deleted-levels";
import { holdsStock } from "../stock/statements";
import { findProduct } from "./list";
import { assertParts, barcodeTaken, componentsChange, kitHeld, kitOnOpenOrder, replaceParts } from "./parts";
import type { CreateProductBody, ProductChanges } from "./schemas";

/** 404 unless the tenant has the merchant a write names (none named: nothing to check). */
async function assertMerchant(tdb: TenantDb, merchantId: string | null | undefined) {
  if (merchantId) await assertMerchantNamed(tdb, merchantId);
}

/**
 * A product write's refusals: a taken SKU or barcode (409), its merchant deleted meanwhile (404), a kit's
 * component deleted meanwhile (409).
 */
function refusedProductWrite(error: unknown, merchantId: string | null): never {
  if (merchantId && brokenConstraint(error) === "foreign_key") throw unknownMerchant(merchantId);
  return asConflict(error, {
    ...duplicateProduct,
    foreign_key: "A component was deleted meanwhile; nothing was written",
  });
}

export const duplicateProduct = {
  products_tenant_sku_unique: "A product with this SKU already exists",
  products_tenant_barcode_unique: "A product with this barcode already exists",
  ...barcodeTaken,
};

const sentParts = (input: CreateProductBody | ProductChanges, stored: ProductParts): ProductParts => ({
  components: input.components ?? stored.components,
  packagings: (input.packagings ?? stored.packagings).map((p) => ({ ...p, barcode: p.barcode ?? null })),
});

export async function createProduct(tdb: TenantDb, input: CreateProductBody): Promise<StoredProduct> {
  const row = newProductRow(tdb, input, new Date().toISOString());
  await assertMerchant(tdb, row.merchantId);
  await assertParts(tdb, row, input, true);
  const parts = sentParts(input, noParts);
  await runBatch(tdb, {
    product: tdb.db.insert(products).values(row),
    parts: replaceParts(tdb, row.id, input, sql`true`),
    created: eventRow(tdb, "product.created", productRecord(row, parts), row.createdAt),
  }).catch((e) => refusedProductWrite(e, row.merchantId));
  return { row, parts };
}

const one = sql`1`;
const ATTEMPTS = 3;
const stale = () =>
  new AppError("PRECONDITION_FAILED", "The product has changed since you read it (If-Match)");

/**
 * Runs a version-guarded write until it commits (`attempt` returns its result) or fails: without If-Match a
 * concurrent writer just means reading again; with it, 412.
 */
async function untilCommitted<T>(ifMatch: string | undefined, attempt: () => Promise<T | undefined>) {
  for (let i = 0; i < ATTEMPTS; i++) {
    const result = await attempt();
    if (result) return result;
    if (ifMatch !== undefined) throw stale();
  }
  throw conflict("The product is being changed by other requests; retry");
}

/**
 * Updates a product guarded by the version it read, with its `product.updated` event in the same batch. Sent
 * parts replace the stored ones; a kit's components change only while no open order holds the kit (409).
 */
export function updateProduct(
  tdb: TenantDb,
  id: string,
  changes: ProductChanges,
  ifMatch?: string,
): Promise<StoredProduct> {
  return untilCommitted(ifMatch, async () => {
    const { row: current, parts: stored } = await findProduct(tdb, id);
    if (!ifMatchAdmits(ifMatch, current)) throw stale();
    const next = changedProductRow(current, changes, new Date().toISOString());
    const { tenantId: _t, id: _id, createdAt: _c, ...values } = next;
    const moves = next.merchantId !== current.merchantId;
    await assertParts(tdb, next, changes, false, moves ? stored.components : []);
    const parts = sentParts(changes, stored);
    // Tracking says how the product's stock is keyed (lot, serials): it changes only while there is none.
    const retracks = next.tracking !== current.tracking;
    if (retracks) await assertNoStock(tdb, id);
    // Its merchant owns its stock and orders: it changes only while there are none.
    if (moves) await assertMovable(tdb, id, next.merchantId);
    const recomposes = componentsChange(stored.components, changes.components);
    const guard = and(
      eq(products.version, current.version),
      retracks ? not(heldStock(tdb, id)) : undefined,
      moves ? not(stockOrOpenOrders(tdb, id)) : undefined,
      recomposes ? not(kitOnOpenOrder(tdb, id)) : undefined,
    ) as SQL;
    const written = await runBatch(tdb, {
      product: tdb.db
        .update(products)
        .set(values)
        .where(inTenant(tdb, products, eq(products.id, id), guard)),
      updated: eventRow(tdb, "product.updated", productRecord(next, parts), next.updatedAt, {
        onlyIf: previousStatementChanged,
      }),
      // After the product's update, which bumped its version: guarded by the version it now has.
      parts: replaceParts(tdb, id, changes, productVersionIs(tdb, id, next.version)),
    }).catch((e) => refusedProductWrite(e, next.merchantId));
    // meta.changes also counts the search index's trigger writes, so any change means the row was updated.
    if (changesOf(written.product) > 0) return { row: next, parts };
    if (recomposes) {
      const [why] = await tdb.db.all<{ held: number }>(sql`select ${kitOnOpenOrder(tdb, id)} as held`);
      if (why?.held) throw kitHeld();
    }
    return undefined;
  });
}

const productVersionIs = (tdb: TenantDb, id: string, version: number) =>
  exists(
    tdb.db
      .select({ one })
      .from(products)
      .where(inTenant(tdb, products, eq(products.id, id), eq(products.version, version))),
  );

// Sales orders not yet shipped still hold or will take this product's stock.
const openOrderLine = (tdb: TenantDb, id: string) =>
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
const heldStock = (tdb: TenantDb, id: string) => holdsStock(tdb, eq(stockLevels.productId, id));

const stockOrOpenOrders = (tdb: TenantDb, id: string) =>
  sql`(${heldStock(tdb, id)} or ${openOrderLine(tdb, id)})`;

async function assertNoStock(tdb: TenantDb, id: string) {
  const [row] = await tdb.db.all<{ stock: number }>(sql`select ${heldStock(tdb, id)} as stock`);
  if (row?.stock)
    throw conflict("tracking: the product has stock; its tracking changes only while it has none");
}

async function assertMovable(tdb: TenantDb, id: string, merchantId: string | null) {
  if (tdb.merchantId) {
    throw validationError(["merchantId: a merchant-scoped credential's products stay its merchant's"]);
  }
  const [row] = await tdb.db.all<{ busy: number }>(sql`select ${stockOrOpenOrders(tdb, id)} as busy`);
  if (row?.busy) {
    throw conflict(
      "merchantId: the product has stock or open orders; its merchant changes only while it has none",
    );
  }
  await assertMerchant(tdb, merchantId);
}

// A kit that lists this product among its components.
const componentOfKit = (tdb: TenantDb, id: string) =>
  exists(
    tdb.db
      .select({ one })
      .from(kitComponents)
      .where(inTenant(tdb, kitComponents, eq(kitComponents.componentId, id))),
  );

/**
 * Refused (409) while the product has stock or open order lines, is a component of a kit, or (a kit) is on open
 * orders; its empty stock rows and its parts go with it.
 */
export function deleteProduct(tdb: TenantDb, id: string, ifMatch?: string): Promise<StoredProduct> {
  return untilCommitted(ifMatch, async () => {
    const { row: current, parts } = await findProduct(tdb, id);
    if (!ifMatchAdmits(ifMatch, current)) throw stale();
    const blocked = sql`(${stockOrOpenOrders(tdb, id)} or ${componentOfKit(tdb, id)} or ${kitOnOpenOrder(tdb, id)})`;
    const emptyLevels = and(eq(stockLevels.productId, id), not(blocked)) as SQL;
    const written = await runBatch(tdb, {
      components: tdb.db
        .delete(kitComponents)
        .where(inTenant(tdb, kitComponents, eq(kitComponents.kitId, id), not(blocked))),
      packagings: tdb.db
        .delete(productPackagings)
        .where(inTenant(tdb, productPackagings, eq(productPackagings.productId, id), not(blocked))),
      kept: keepDeletedLevels(tdb, emptyLevels, new Date().toISOString()),
      stock: tdb.db.delete(stockLevels).where(inTenant(tdb, stockLevels, emptyLevels)),
      // Its lots and serial numbers (none in stock) go with it; the ledger keeps their ids.
      serials: tdb.db
        .delete(serialNumbers)
        .where(inTenant(tdb, serialNumbers, eq(serialNumbers.productId, id), not(blocked))),
      lots: tdb.db.delete(lots).where(inTenant(tdb, lots, eq(lots.productId, id), not(blocked))),
      product: tdb.db
        .delete(products)
        .where(
          inTenant(tdb, products, eq(products.id, id), eq(products.version, current.version), not(blocked)),
        ),
      deleted: eventRow(tdb, "product.deleted", productRecord(current, parts), new Date().toISOString(), {
        onlyIf: previousStatementChanged,
      }),
    });
    if (changesOf(written.product) > 0) return { row: current, parts };
    const [why] = await tdb.db.all<{ stock: number; open: number; component: number; kit: number }>(
      sql`select ${heldStock(tdb, id)} as stock, ${openOrderLine(tdb, id)} as open,
        ${componentOfKit(tdb, id)} as component, ${kitOnOpenOrder(tdb, id)} as kit`,
    );
    if (why?.stock) throw conflict("The product has stock; adjust it to zero first (or set it Inactive)");
    if (why?.open || why?.kit) throw conflict("The product is on open orders (or set it Inactive)");
    if (why?.component)
      throw conflict(
        "The product is a component of a kit; take it out of the kit first (or set it Inactive)",
      );
    return undefined; // changed by another writer since it was read
  });
}
