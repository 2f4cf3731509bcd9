import { or, sql } from "drizzle-orm";
import { inJsonArray, jsonChunks, runBatch } from "../db/batch";
import type { TenantDb } from "../db/client";
import { asConflict } from "../db/constraint-errors";
import { products } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import { AppError } from "../http/errors";
import { formatIssues } from "../http/validation";
import { eventRows } from "../outbox/outbox";
import { parseCsv } from "./csv-parse";
import { type ProductRow, productRecord } from "./records";
import { CreateProductBody } from "./schemas";
import { changedProductRow, duplicateProduct, newProductRow } from "./writes";

export const MAX_IMPORT_ROWS = 5000;
// Rows travel as one JSON parameter per statement (json_each), so a 5,000-row import is a handful of
// statements and stays far below D1's 100 bound parameters; jsonChunks keep each parameter below 1 MB.
const ROWS_PER_STATEMENT = 500;
const NUMERIC = new Set(["price", "cost", "reorderPoint"]);
// A number as spreadsheets write it. Not Number(): it reads `0x10` as 16, `0b11` as 3 and `Infinity`; such a cell
// stays text and is refused as not a number.
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

const invalid = (errors: string[]) =>
  new AppError("VALIDATION_FAILED", `Import rejected: ${errors.length} problem(s); nothing was written`, {
    errors,
  });

/** Rows from a JSON array or a CSV text with a header row; CSV cells become typed values. */
export function rowsOf(contentType: string, body: string): unknown[] {
  if (contentType.startsWith("text/csv")) {
    const [header, ...lines] = parseCsv(body);
    if (!header) throw invalid(["body: the CSV has no header row"]);
    const columns = header.map((h) => h.trim());
    return lines.map((cells) =>
      Object.fromEntries(
        columns.flatMap((column, i) => {
          const cell = cells[i]?.trim() ?? "";
          if (cell === "") return [];
          return [[column, NUMERIC.has(column) && DECIMAL.test(cell) ? Number(cell) : cell]];
        }),
      ),
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    throw invalid(["body: malformed JSON"]);
  }
  if (!Array.isArray(parsed)) throw invalid(["body: must be a JSON array of products"]);
  return parsed;
}

/**
 * All or nothing: every row is validated (shape, duplicates inside the file, conflicts with stored
 * products) and any problem rejects the whole import listing every bad row; otherwise one batch
 * writes every product and its event.
 */
export async function importProducts(
  tdb: TenantDb,
  rows: unknown[],
  options: { mode: "create" | "upsert"; dryRun: boolean },
) {
  if (rows.length === 0) throw invalid(["body: no rows to import"]);
  if (rows.length > MAX_IMPORT_ROWS) throw invalid([`body: at most ${MAX_IMPORT_ROWS} rows per import`]);
  const errors: string[] = [];
  const valid: { line: number; input: CreateProductBody }[] = [];
  rows.forEach((row, i) => {
    const result = CreateProductBody.safeParse(row);
    if (result.success) valid.push({ line: i + 1, input: result.data });
    else for (const message of formatIssues(result.error.issues)) errors.push(`row ${i + 1}: ${message}`);
  });
  for (const field of ["sku", "barcode"] as const) {
    const firstLine = new Map<string, number>();
    for (const { line, input } of valid) {
      const value = input[field];
      if (!value) continue;
      const seen = firstLine.get(value);
      if (seen) errors.push(`row ${line}: ${field}: ${value} duplicates row ${seen}`);
      else firstLine.set(value, line);
    }
  }
  const skus = valid.map((v) => v.input.sku);
  const barcodes = valid.flatMap((v) => (v.input.barcode ? [v.input.barcode] : []));
  const stored = await tdb.db
    .select()
    .from(products)
    .where(
      inTenant(tdb, products, or(inJsonArray(products.sku, skus), inJsonArray(products.barcode, barcodes))),
    );
  const storedBySku = new Map(stored.map((p) => [p.sku, p]));
  const storedByBarcode = new Map(stored.flatMap((p) => (p.barcode ? [[p.barcode, p] as const] : [])));
  for (const { line, input } of valid) {
    const existing = storedBySku.get(input.sku);
    if (existing && options.mode === "create") errors.push(`row ${line}: sku: ${input.sku} already exists`);
    const owner = input.barcode ? storedByBarcode.get(input.barcode) : undefined;
    if (owner && owner.sku !== input.sku) {
      errors.push(`row ${line}: barcode: ${input.barcode} already belongs to ${owner.sku}`);
    }
  }
  if (errors.length > 0) throw invalid(errors);

  const now = new Date().toISOString();
  const toCreate: ProductRow[] = [];
  const toUpdate: ProductRow[] = [];
  for (const { input } of valid) {
    const existing = storedBySku.get(input.sku);
    if (existing) toUpdate.push(changedProductRow(existing, input, now));
    else toCreate.push(newProductRow(tdb.tenantId, input, now));
  }
  if (!options.dryRun) await writeImport(tdb, toCreate, toUpdate, now);
  return { dryRun: options.dryRun, rows: rows.length, created: toCreate.length, updated: toUpdate.length };
}

const column = (name: string) => sql.raw(`json_extract(value, '$.${name}')`);

async function writeImport(tdb: TenantDb, toCreate: ProductRow[], toUpdate: ProductRow[], now: string) {
  const events = [
    ...toCreate.map((row) => ({ type: "product.created" as const, payload: productRecord(row) })),
    ...toUpdate.map((row) => ({ type: "product.updated" as const, payload: productRecord(row) })),
  ];
  const statements = {
    created: jsonChunks(toCreate, ROWS_PER_STATEMENT).map(
      (
        chunk,
      ) => sql`insert into products (id, tenant_id, sku, name, barcode, category, unit, price_e4, cost_e4, status,
          reorder_point, description, version, created_at, updated_at)
        select ${column("id")}, ${column("tenantId")}, ${column("sku")}, ${column("name")}, ${column("barcode")},
          ${column("category")}, ${column("unit")}, ${column("priceE4")}, ${column("costE4")}, ${column("status")},
          ${column("reorderPoint")}, ${column("description")}, 1, ${now}, ${now}
        from json_each(${JSON.stringify(chunk)})`,
    ),
    // Materialized, so each row is one key lookup rather than a walk of the tenant's products per row.
    updated: jsonChunks(toUpdate, ROWS_PER_STATEMENT).map(
      (chunk) => sql`with j as materialized (select ${column("id")} as id, ${column("name")} as name,
            ${column("barcode")} as barcode, ${column("category")} as category, ${column("unit")} as unit,
            ${column("priceE4")} as price_e4, ${column("costE4")} as cost_e4, ${column("status")} as status,
            ${column("reorderPoint")} as reorder_point, ${column("description")} as description
          from json_each(${JSON.stringify(chunk)}))
        update products set name = j.name, barcode = j.barcode, category = j.category, unit = j.unit,
          price_e4 = j.price_e4, cost_e4 = j.cost_e4, status = j.status, reorder_point = j.reorder_point,
          description = j.description, version = products.version + 1, updated_at = ${now}
        from j
        where ${inTenant(tdb, products)} and products.id = j.id`,
    ),
    events: eventRows(tdb, events, now),
  };
  // One batch: D1 runs it as one transaction, so a failure (a racing insert of the same SKU) writes nothing.
  await runBatch(tdb, statements).catch((e) => asConflict(e, duplicateProduct));
}
