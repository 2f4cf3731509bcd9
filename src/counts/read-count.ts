import { eq } from "drizzle-orm";
import { runBatch } from "../db/batch";
import type { TenantDb } from "../db/client";
import { inventoryCounts } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import { notFound } from "../http/errors";
import { countLinesQuery, countRecord } from "./records";

const countQuery = (tdb: TenantDb, id: string) =>
  tdb.db
    .select()
    .from(inventoryCounts)
    .where(inTenant(tdb, inventoryCounts, eq(inventoryCounts.id, id)));

/** `GET /inventory/counts/{id}`: the count with its lines and variances (404 outside the tenant). */
export async function readCount(tdb: TenantDb, id: string) {
  const read = await runBatch(tdb, { count: countQuery(tdb, id), lines: countLinesQuery(tdb, id) });
  const [row] = read.count;
  if (!row) throw notFound("Inventory count");
  return countRecord(row, read.lines);
}
