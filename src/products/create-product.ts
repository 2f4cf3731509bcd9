import { sql } from "drizzle-orm";
import { runBatch } from "../db/batch";
import type { TenantDb } from "../db/client";
import { brokenConstraint } from "../db/constraint-errors";
import { products } from "../db/schema/tenant";
import { conflict } from "../http/errors";
import { eventRow } from "../outbox/outbox";
import { noParts, type StoredProduct } from "../product-core/parts";
import { productRecord } from "../product-core/records";
import { newProductRow } from "../product-core/rows";
import { assertParts, replaceParts } from "./parts";
import { assertMerchant, kitGuard, refusedProductWrite, sentParts } from "./product-writes";
import type { CreateProductBody } from "./schemas";

/** `POST /products`: the product, its parts and its `product.created` event in one batch. */
export async function createProduct(tdb: TenantDb, input: CreateProductBody): Promise<StoredProduct> {
  const row = newProductRow(tdb, input, new Date().toISOString());
  await assertMerchant(tdb, row.merchantId);
  await assertParts(tdb, row, input, true);
  const parts = sentParts(input, noParts);
  await runBatch(tdb, {
    oneMerchant: input.components ? kitGuard(tdb, row, input) : undefined,
    product: tdb.db.insert(products).values(row),
    parts: replaceParts(tdb, row.id, input, sql`true`),
    created: eventRow(tdb, "product.created", productRecord(row, parts), row.createdAt),
  }).catch(async (e) => {
    if (brokenConstraint(e) !== "precondition_refused") return refusedProductWrite(e, row.merchantId);
    await assertParts(tdb, row, input, true); // the 400 naming the component that moved meanwhile
    throw conflict("A component's merchant changed meanwhile; nothing was written, retry");
  });
  return { row, parts };
}
