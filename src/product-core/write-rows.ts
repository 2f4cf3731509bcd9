import { eq, or, sql } from "drizzle-orm";
import { inJsonArray, jsonChunks, runBatch, type Statement } from "../db/batch";
import type { TenantDb } from "../db/client";
import { merchants, productPackagings, products } from "../db/schema/tenant";
import { inTenant, tenantIdsAmong } from "../db/tenant-scope";
import { formatIssues } from "../http/validation";
import { eventRows } from "../outbox/outbox";
import { noParts, type ProductParts, productWithParts, type StoredProduct, withParts } from "./parts";
import { type ProductRow, productRecord } from "./records";
import { changedProductRow, newProductRow } from "./rows";
import { type ProductFieldChanges, ProductFieldsBody } from "./schemas";

// Many products written at once (an import, a batch upsert): new rows and changed rows travel as one JSON parameter
// per statement (json_each), so 1,000 or 5,000 rows are a handful of statements far below D1's 100 bound
// parameters; jsonChunks keep each parameter below 1 MB.
const ROWS_PER_STATEMENT = 500;

/** Why a bulk write (an import, a batch) leaves a stored product's tracking alone. */
const trackingFixed =
  "a stored product's tracking changes one product at a time (PUT /products/{id}), while it has no stock";

const column = (name: string) => sql.raw(`json_extract(value, '$.${name}')`);

/**
 * ONE batch: the new rows inserted, the changed rows updated (each only while it still has the version it was
 * read at: otherwise its status becomes 'stale', which the status CHECK refuses, failing the batch), and a
 * `product.created` / `product.updated` event for each. A racing insert of the same SKU or barcode fails it on
 * the unique index. `toUpdate` rows carry their next version (read version + 1), with their parts as stored: a bulk
 * write leaves parts alone, and the events show them.
 */
export async function writeProductRows(
  tdb: TenantDb,
  toCreate: ProductRow[],
  toUpdate: StoredProduct[],
  now: string,
  /** Statements committed in the same batch (a job's record that this chunk of its rows is done). */
  alongside: Statement[] = [],
) {
  const events = [
    ...toCreate.map((row) => ({ type: "product.created" as const, payload: productRecord(row, noParts) })),
    ...toUpdate.map(({ row, parts }) => ({
      type: "product.updated" as const,
      payload: productRecord(row, parts),
    })),
  ];
  await runBatch(tdb, {
    created: jsonChunks(toCreate, ROWS_PER_STATEMENT).map(
      (
        chunk,
      ) => sql`insert into products (id, tenant_id, sku, name, barcode, category, unit, price_e4, cost_e4, status,
          reorder_point, tracking, description, merchant_id, version, created_at, updated_at)
        select ${column("id")}, ${column("tenantId")}, ${column("sku")}, ${column("name")}, ${column("barcode")},
          ${column("category")}, ${column("unit")}, ${column("priceE4")}, ${column("costE4")}, ${column("status")},
          ${column("reorderPoint")}, ${column("tracking")}, ${column("description")}, ${column("merchantId")}, 1,
          ${now}, ${now}
        from json_each(${JSON.stringify(chunk)})`,
    ),
    // Materialized, so each row is one key lookup rather than a walk of the tenant's products per row.
    updated: jsonChunks(
      toUpdate.map(({ row }) => row),
      ROWS_PER_STATEMENT,
    ).map(
      (chunk) => sql`with j as materialized (select ${column("id")} as id, ${column("sku")} as sku,
            ${column("name")} as name, ${column("barcode")} as barcode, ${column("category")} as category,
            ${column("unit")} as unit, ${column("priceE4")} as price_e4, ${column("costE4")} as cost_e4,
            ${column("status")} as status, ${column("reorderPoint")} as reorder_point,
            ${column("description")} as description, ${column("version")} as version
          from json_each(${JSON.stringify(chunk)}))
        update products set sku = j.sku, name = j.name, barcode = j.barcode, category = j.category, unit = j.unit,
          price_e4 = j.price_e4, cost_e4 = j.cost_e4,
          status = case when products.version = j.version - 1 then j.status else 'stale' end,
          reorder_point = j.reorder_point, description = j.description, version = j.version, updated_at = ${now}
        from j
        where ${inTenant(tdb, products)} and products.id = j.id`,
    ),
    events: eventRows(tdb, events, now),
    alongside,
  });
}

/** A product a bulk write names by SKU: the create fields, or any subset of them for a stored SKU. */
export type ProductLine = ProductFieldChanges & { sku: string };

export interface PlannedRows {
  /** Each refused line's status and problems, by its index. */
  problems: Map<number, { status: 400 | 409; errors: string[] }>;
  /**
   * The row each good line writes, the stored row it changes (none: a new product), and the product's parts as
   * stored (read with the row; a bulk write leaves them alone).
   */
  rows: Map<number, { row: ProductRow; stored?: ProductRow; parts: ProductParts }>;
}

/**
 * Every line checked against the others and the stored products: a SKU or barcode named twice for one owner, a
 * new SKU without what a create needs, a barcode another product or packaging of the owner holds, a tracking change
 * (refused: it needs the product to have no stock, one product at a time). A line names its product by SKU within
 * its owner (`ownerOf`): a line naming another merchant than a stored SKU's writes a new product of that merchant.
 * `mode: "create"` refuses stored SKUs. `label` says where a line is in the request (`row 3`, `line 2`).
 */
export async function planProductRows(
  tdb: TenantDb,
  lines: readonly ProductLine[],
  options: { mode: "create" | "upsert"; label: (index: number) => string },
): Promise<PlannedRows> {
  const problems: PlannedRows["problems"] = new Map();
  const refuse = (index: number, status: 400 | 409, error: string) => {
    const seen = problems.get(index);
    problems.set(index, {
      status: Math.min(seen?.status ?? status, status) as 400 | 409,
      errors: [...(seen?.errors ?? []), error],
    });
  };
  // A line's owner (SKUs and barcodes are unique per owner): the merchant it names (null: the tenant's own goods),
  // else the writer's merchant. A tenant-wide writer naming none means the one stored product with that SKU,
  // whoever owns it (several: refused), or the tenant's own goods for a new SKU.
  const anyOwner = "*";
  const ownerOf = (line: ProductLine) =>
    line.merchantId === undefined ? (tdb.merchantId ?? anyOwner) : (line.merchantId ?? "");
  const sameOwner = (a: string, b: string) => a === b || a === anyOwner || b === anyOwner;
  const barcodes = lines.flatMap((line) => (line.barcode ? [line.barcode] : []));
  const read = await runBatch(tdb, {
    stored: tdb.db
      .select(productWithParts)
      .from(products)
      .where(
        inTenant(
          tdb,
          products,
          or(
            inJsonArray(
              products.sku,
              lines.map((line) => line.sku),
            ),
            inJsonArray(products.barcode, barcodes),
          ),
        ),
      ),
    merchants: tenantIdsAmong(
      tdb,
      merchants,
      lines.flatMap((line) => (line.merchantId ? [line.merchantId] : [])),
    ),
    // A barcode is unique across an owner's products and packagings.
    packed: tdb.db
      .select({ barcode: productPackagings.barcode, sku: products.sku, merchantId: products.merchantId })
      .from(productPackagings)
      .innerJoin(products, eq(products.id, productPackagings.productId))
      .where(inTenant(tdb, productPackagings, inJsonArray(productPackagings.barcode, barcodes))),
  });
  const stored = read.stored.map(withParts);
  const knownMerchants = new Set(read.merchants.map((m) => m.id));
  const now = new Date().toISOString();
  // Each line's stored product and the owner it writes for: the stored product's, else the one it names (a new SKU);
  // none when its SKU names several owners' products.
  const targets = lines.map((line) => {
    const owner = ownerOf(line);
    const candidates = stored.filter(
      (p) => p.row.sku === line.sku && sameOwner(p.row.merchantId ?? "", owner),
    );
    if (candidates.length > 1) return { candidates };
    const found = candidates[0];
    return {
      candidates,
      found,
      writes: found ? (found.row.merchantId ?? "") : owner === anyOwner ? "" : owner,
    };
  });
  // A SKU or barcode named twice for one owner.
  for (const field of ["sku", "barcode"] as const) {
    const first = new Map<string, number>();
    lines.forEach((line, index) => {
      const { writes } = targets[index] as (typeof targets)[number];
      if (!line[field] || writes === undefined) return;
      const key = JSON.stringify([line[field], writes]);
      const seen = first.get(key);
      if (seen === undefined) first.set(key, index);
      else refuse(index, 400, `${field}: ${line[field]} duplicates ${options.label(seen)}`);
    });
  }
  const rows: PlannedRows["rows"] = new Map();
  lines.forEach((line, index) => {
    const { candidates, found, writes } = targets[index] as (typeof targets)[number];
    if (writes === undefined) {
      const owners = candidates.map((p) => p.row.merchantId ?? "the tenant's own").join(", ");
      refuse(index, 409, `sku: ${line.sku} names products of several owners (${owners}); send merchantId`);
      return;
    }
    const existing = found?.row;
    if (existing && options.mode === "create") refuse(index, 409, `sku: ${line.sku} already exists`);
    if (existing && line.tracking !== undefined && line.tracking !== existing.tracking) {
      refuse(index, 409, `tracking: ${trackingFixed}`);
    }
    if (line.merchantId && !knownMerchants.has(line.merchantId)) {
      refuse(index, 400, `merchantId: merchant ${line.merchantId} not found`);
    }
    const holder = line.barcode
      ? stored.find((p) => p.row.barcode === line.barcode && (p.row.merchantId ?? "") === writes)?.row
      : undefined;
    if (holder && holder.sku !== line.sku)
      refuse(index, 409, `barcode: ${line.barcode} already belongs to ${holder.sku}`);
    const packaging = line.barcode
      ? read.packed.find((p) => p.barcode === line.barcode && (p.merchantId ?? "") === writes)
      : undefined;
    if (packaging)
      refuse(index, 409, `barcode: ${line.barcode} already belongs to a packaging of ${packaging.sku}`);
    if (existing) {
      if (!problems.has(index))
        rows.set(index, {
          row: changedProductRow(existing, line, now),
          stored: existing,
          parts: found?.parts ?? noParts,
        });
      return;
    }
    const create = ProductFieldsBody.safeParse(line);
    if (!create.success) for (const message of formatIssues(create.error.issues)) refuse(index, 400, message);
    else if (!problems.has(index))
      rows.set(index, { row: newProductRow(tdb, create.data, now), parts: noParts });
  });
  return { problems, rows };
}
