import { and, eq, exists, not, type SQL, sql } from "drizzle-orm";
import { changesOf, runBatch } from "../db/batch";
import type { TenantDb } from "../db/client";
import { brokenConstraint } from "../db/constraint-errors";
import { assertNotComponentOfOthers } from "../db/kit-merchant";
import { products } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import { conflict } from "../http/errors";
import { validationError } from "../http/validation";
import { eventRow, previousStatementChanged } from "../outbox/outbox";
import type { StoredProduct } from "../product-core/parts";
import { ifMatchAdmits, type ProductRow, productRecord } from "../product-core/records";
import { changedProductRow } from "../product-core/rows";
import { findProduct } from "./get-product";
import { assertParts, componentsChange, kitHeld, kitOnOpenOrder, replaceParts } from "./parts";
import {
  assertMerchant,
  heldStock,
  kitGuard,
  refusedProductWrite,
  sentParts,
  stale,
  stockOrOpenOrders,
  untilCommitted,
} from "./product-writes";
import type { ProductChanges } from "./schemas";

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
    if (moves) await assertMovable(tdb, current, next.merchantId);
    const recomposes = componentsChange(stored.components, changes.components);
    const guard = and(
      eq(products.version, current.version),
      retracks ? not(heldStock(tdb, id)) : undefined,
      moves ? not(stockOrOpenOrders(tdb, id)) : undefined,
      recomposes ? not(kitOnOpenOrder(tdb, id)) : undefined,
    ) as SQL;
    const written = await runBatch(tdb, {
      oneMerchant: moves || changes.components ? kitGuard(tdb, next, changes) : undefined,
      product: tdb.db
        .update(products)
        .set(values)
        .where(inTenant(tdb, products, eq(products.id, id), guard)),
      updated: eventRow(tdb, "product.updated", productRecord(next, parts), next.updatedAt, {
        onlyIf: previousStatementChanged,
      }),
      // After the product's update, which bumped its version: guarded by the version it now has.
      parts: replaceParts(tdb, id, changes, productVersionIs(tdb, id, next.version)),
    }).catch((e) =>
      brokenConstraint(e) === "precondition_refused" ? undefined : refusedProductWrite(e, next.merchantId),
    );
    if (!written) {
      // A kit would have been split by a write committed since the reads above: they answer it now.
      await assertParts(tdb, next, changes, false, moves ? stored.components : []);
      if (moves) await assertNotComponentOfOthers(tdb, current, next.merchantId);
      return undefined;
    }
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
      .select({ one: sql`1` })
      .from(products)
      .where(inTenant(tdb, products, eq(products.id, id), eq(products.version, version))),
  );

async function assertNoStock(tdb: TenantDb, id: string) {
  const [row] = await tdb.db.all<{ stock: number }>(sql`select ${heldStock(tdb, id)} as stock`);
  if (row?.stock)
    throw conflict("tracking: the product has stock; its tracking changes only while it has none");
}

async function assertMovable(tdb: TenantDb, product: ProductRow, merchantId: string | null) {
  if (tdb.merchantId) {
    throw validationError(["merchantId: a merchant-scoped credential's products stay its merchant's"]);
  }
  const [row] = await tdb.db.all<{ busy: number }>(sql`select ${stockOrOpenOrders(tdb, product.id)} as busy`);
  if (row?.busy) {
    throw conflict(
      "merchantId: the product has stock or open orders; its merchant changes only while it has none",
    );
  }
  await assertMerchant(tdb, merchantId);
  await assertNotComponentOfOthers(tdb, product, merchantId);
}
