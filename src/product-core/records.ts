import type { products } from "../db/schema/tenant";
import { fromE4OrNull } from "../money";
import type { ProductRecord } from "../record-schemas/product";
import type { ProductParts } from "./parts";

export type ProductRow = typeof products.$inferSelect;

/** A product as the API shows it: its row and its parts (a kit's components, its packagings). */
export function productRecord(row: ProductRow, parts: ProductParts): ProductRecord {
  return {
    id: row.id,
    sku: row.sku,
    name: row.name,
    barcode: row.barcode,
    category: row.category,
    unit: row.unit,
    price: fromE4OrNull(row.priceE4),
    cost: fromE4OrNull(row.costE4),
    status: row.status,
    reorderPoint: row.reorderPoint,
    tracking: row.tracking,
    type: row.type,
    components: parts.components,
    packagings: parts.packagings.map((p) => ({ ...p, barcode: p.barcode ?? null })),
    description: row.description,
    merchantId: row.merchantId,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/** A strong validator that changes with every write (the row's version). */
export const etagOf = (row: Pick<ProductRow, "version">) => `"v${row.version}"`;

/** Whether an If-Match header (`*`, one tag or a list) admits the current version. Absent admits all. */
export function ifMatchAdmits(header: string | undefined, row: Pick<ProductRow, "version">): boolean {
  if (header === undefined) return true;
  const tags = header.split(",").map((tag) => tag.trim().replace(/^W\//, ""));
  return tags.includes("*") || tags.includes(etagOf(row));
}
