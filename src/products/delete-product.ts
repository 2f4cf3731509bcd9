import { and, eq, exists, not, type SQL, sql } from "drizzle-orm";
import { changesOf, runBatch } from "../db/batch";
import type { TenantDb } from "../db/client";
import {
  kitComponents,
  lots,
  productPackagings,
  products,
  serialNumbers,
  stockLevels,
} from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import { conflict } from "../http/errors";
import { eventRow, previousStatementChanged } from "../outbox/outbox";
import type { StoredProduct } from "../product-core/parts";
import { ifMatchAdmits, productRecord } from "../product-core/records";
import { keepDeletedLevels } from "../stock";
import { findProduct } from "./get-product";
import { kitOnOpenOrder } from "./parts";
import { heldStock, openOrderLine, stale, stockOrOpenOrders, untilCommitted } from "./product-writes";

// A kit that lists this product among its components.
const componentOfKit = (tdb: TenantDb, id: string) =>
  exists(
    tdb.db
      .select({ one: sql`1` })
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
