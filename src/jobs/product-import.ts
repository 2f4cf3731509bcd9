import type { z } from "@hono/zod-openapi";
import type { Statement } from "../db/batch";
import type { TenantDb } from "../db/client";
import { formatIssues } from "../http/validation";
import { ProductBatchLine } from "../product-core/schemas";
import { upsertProducts } from "../product-core/upsert-products";
import type { RowError } from "../record-schemas/job";
import { type ParsedRow, writeRows } from "./import-rows";

// product_import: each row a product keyed by SKU, created or updated as `POST /products/batch` does (only the
// fields a row names change a stored product; a row as stored changes nothing), by the same writer.

type Line = z.infer<typeof ProductBatchLine>;

/** Upserts the rows' products in ONE batch with `commit(errors)`, the job's record of the chunk. */
export function importProductRows(
  tdb: TenantDb,
  rows: readonly ParsedRow[],
  commit: (errors: RowError[]) => Statement[],
): Promise<void> {
  return writeRows<Line>(
    tdb,
    rows,
    (value) => {
      const line = ProductBatchLine.safeParse(value);
      return line.success ? { item: line.data } : { errors: formatIssues(line.error.issues) };
    },
    (products, commitWith) => upsertProducts(tdb, { products }, commitWith),
    commit,
  );
}
