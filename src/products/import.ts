import type { TenantDb } from "../db/client";
import { asConflict } from "../db/constraint-errors";
import { csvColumns, csvObject, readCsv } from "../http/csv-parse";
import { AppError } from "../http/errors";
import { formatIssues } from "../http/validation";
import type { StoredProduct } from "../product-core/parts";
import type { ProductRow } from "../product-core/records";
import { PRODUCT_CSV_COLUMNS, ProductFieldsBody } from "../product-core/schemas";
import { planProductRows, writeProductRows } from "../product-core/write-rows";
import { duplicateProduct } from "./product-writes";

export const MAX_IMPORT_ROWS = 5000;

const invalid = (errors: string[]) =>
  new AppError("VALIDATION_FAILED", `Import rejected: ${errors.length} problem(s); nothing was written`, {
    errors,
  });

/**
 * Rows from a JSON array or a CSV text with a header row; CSV cells become typed values. A CSV that cannot be read
 * whole (a header naming a column twice, a quote never closed, text after a closing quote, a row with more cells
 * than the header) is refused naming each line, before any row is judged.
 */
export function rowsOf(contentType: string, body: string): unknown[] {
  if (contentType.startsWith("text/csv")) {
    const [header, ...records] = readCsv(body);
    if (!header) throw invalid(["body: the CSV has no header row"]);
    const read = csvColumns(header);
    if ("problem" in read) throw invalid([`body: line ${header.line}: ${read.problem}`]);
    const rows = records.map((record) => ({
      line: record.line,
      ...csvObject(read.columns, record, PRODUCT_CSV_COLUMNS),
    }));
    const unreadable = rows.flatMap((row) =>
      "problem" in row ? [`body: line ${row.line}: ${row.problem}`] : [],
    );
    if (unreadable.length > 0) throw invalid(unreadable);
    return rows.map((row) => ("value" in row ? row.value : {}));
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
  const valid: { index: number; input: ProductFieldsBody }[] = [];
  rows.forEach((row, index) => {
    const result = ProductFieldsBody.safeParse(row);
    if (result.success) valid.push({ index, input: result.data });
    else for (const message of formatIssues(result.error.issues)) errors.push(`row ${index + 1}: ${message}`);
  });
  const label = (i: number) => `row ${(valid[i] as (typeof valid)[number]).index + 1}`;
  const plan = await planProductRows(
    tdb,
    valid.map((v) => v.input),
    { mode: options.mode, label },
  );
  for (const [i, { errors: found }] of plan.problems) errors.push(...found.map((e) => `${label(i)}: ${e}`));
  if (errors.length > 0) throw invalid(errors.sort(byRow));

  const now = new Date().toISOString();
  const planned = [...plan.rows.values()];
  const toCreate = planned.flatMap((p) => (p.stored ? [] : [p.row]));
  const toUpdate = planned.flatMap((p) => (p.stored ? [{ row: p.row, parts: p.parts }] : []));
  if (!options.dryRun) await writeImport(tdb, toCreate, toUpdate, now);
  return { dryRun: options.dryRun, rows: rows.length, created: toCreate.length, updated: toUpdate.length };
}

/** Problems in row order (a row's own first, as they were found). */
const byRow = (a: string, b: string) => rowOf(a) - rowOf(b);
const rowOf = (error: string) => Number(/^row (\d+):/.exec(error)?.[1] ?? 0);

async function writeImport(tdb: TenantDb, toCreate: ProductRow[], toUpdate: StoredProduct[], now: string) {
  // One batch: D1 runs it as one transaction, so a failure (a racing insert of the same SKU) writes nothing.
  await writeProductRows(tdb, toCreate, toUpdate, now).catch((e) =>
    asConflict(e, { ...duplicateProduct, products_status_check: "Products changed while importing; retry" }),
  );
}
