import { uuidv7 } from "uuidv7";
import type { Scope } from "../db/merchant-scope";
import { toE4 } from "../money";
import type { ProductRow } from "./records";
import type { ProductFieldChanges, ProductFields } from "./schemas";

// The product row a write stores: a new one (a create, an import's new SKU) or a stored one changed.

const e4 = (value: number | null | undefined) =>
  value === null || value === undefined ? value : toE4(value);

/** The row a create (or an import) writes. */
export function newProductRow(scope: Scope, input: ProductFields, now: string): ProductRow {
  return {
    id: uuidv7(),
    tenantId: scope.tenantId,
    sku: input.sku,
    name: input.name,
    barcode: input.barcode ?? null,
    category: input.category ?? null,
    unit: input.unit ?? null,
    priceE4: e4(input.price) ?? null,
    costE4: e4(input.cost) ?? null,
    status: input.status ?? "Active",
    reorderPoint: input.reorderPoint ?? 0,
    tracking: input.tracking ?? "none",
    type: input.type ?? "stocked",
    description: input.description ?? null,
    // A merchant-scoped credential's products are its merchant's.
    merchantId: input.merchantId ?? scope.merchantId ?? null,
    version: 1,
    createdAt: now,
    updatedAt: now,
  };
}

/** The row after applying `changes` (only the fields sent) to `current`. */
export function changedProductRow(
  current: ProductRow,
  /** A product write's changes: its parts, if sent, are written apart from the row. */
  changes: ProductFieldChanges & { components?: unknown; packagings?: unknown },
  now: string,
): ProductRow {
  const { price, cost, components: _c, packagings: _p, ...plain } = changes;
  const defined = Object.fromEntries(Object.entries(plain).filter(([, v]) => v !== undefined));
  return {
    ...current,
    ...defined,
    ...(price !== undefined ? { priceE4: e4(price) ?? null } : {}),
    ...(cost !== undefined ? { costE4: e4(cost) ?? null } : {}),
    version: current.version + 1,
    updatedAt: now,
  };
}
