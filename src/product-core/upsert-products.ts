import type { Statement } from "../db/batch";
import type { TenantDb } from "../db/client";
import { answerFor } from "../db/constraint-errors";
import { noParts } from "./parts";
import { type ProductRow, productRecord } from "./records";
import type { ProductBatchBody, ProductBatchResult } from "./schemas";
import { planProductRows, writeProductRows } from "./write-rows";

type LineResult = ProductBatchResult["results"][number];

// A batch written again from a fresh read when a concurrent write took a SKU or barcode or changed a product.
const MAX_ATTEMPTS = 5;

/** The same product apart from its version and update time: nothing to write. */
const sameProduct = (a: ProductRow, b: ProductRow) => {
  const { updatedAt: _a, ...next } = productRecord(a, noParts);
  const { updatedAt: _b, ...stored } = productRecord(b, noParts);
  return JSON.stringify(next) === JSON.stringify(stored);
};

/**
 * `POST /products/batch`: up to 1,000 products created or updated by SKU, each on its own (per-line results). The
 * good lines are ONE batch with their `product.created` / `product.updated` events; a product sent as it is stored
 * is left alone (no new version, no event). A write that loses a race (a SKU or barcode taken meanwhile, a product
 * changed) is planned again from a fresh read.
 */
export async function upsertProducts(
  tdb: TenantDb,
  body: ProductBatchBody,
  /** Statements committed with the products, given each refused line's errors by index (a job's chunk record). */
  commitWith?: (failures: ReadonlyMap<number, string[]>) => Statement[],
): Promise<ProductBatchResult> {
  const results: (LineResult | undefined)[] = body.products.map(() => undefined);
  let pending = body.products.map((line, index) => ({ line, index }));
  for (let attempt = 1; pending.length > 0; attempt++) {
    const plan = await planProductRows(
      tdb,
      pending.map((p) => p.line),
      { mode: "upsert", label: (i) => `line ${pending[i]?.index}` },
    );
    for (const [i, problem] of plan.problems) results[pending[i]?.index as number] = problem;
    const planned = [...plan.rows].map(([i, rows]) => ({ ...rows, index: pending[i]?.index as number }));
    const changed = planned.filter((p) => !(p.stored && sameProduct(p.row, p.stored)));
    try {
      await writeProductRows(
        tdb,
        changed.flatMap((p) => (p.stored ? [] : [p.row])),
        changed.flatMap((p) => (p.stored ? [{ row: p.row, parts: p.parts }] : [])),
        new Date().toISOString(),
        commitWith?.(
          new Map(results.flatMap((r, index) => (r?.errors ? [[index, r.errors] as const] : []))),
        ) ?? [],
      );
    } catch (error) {
      answerFor(error, {
        products_tenant_sku_unique: () => undefined,
        products_tenant_merchant_sku_unique: () => undefined,
        products_tenant_barcode_unique: () => undefined,
        products_tenant_merchant_barcode_unique: () => undefined,
        barcode_taken: () => undefined,
        products_status_check: () => undefined,
      });
      pending = planned.map((p) => ({
        line: body.products[p.index] as ProductBatchBody["products"][number],
        index: p.index,
      }));
      if (attempt < MAX_ATTEMPTS) continue;
      for (const p of pending)
        results[p.index] = { status: 409, errors: ["Products changed while writing; retry"] };
      break;
    }
    for (const p of planned) {
      const action = !p.stored ? "created" : changed.includes(p) ? "updated" : "unchanged";
      results[p.index] = { status: action === "created" ? 201 : 200, action, id: p.row.id };
    }
    break;
  }
  const shown = results as LineResult[];
  const failed = shown.filter((r) => r.errors).length;
  return { applied: shown.length - failed, failed, results: shown };
}
