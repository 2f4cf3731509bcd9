import { asc, count, gte, lt, type SQL, sql } from "drizzle-orm";
import { runBatch } from "../db/batch";
import type { TenantDb } from "../db/client";
import { returnLines, returnReceiptLines } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import type { CsvColumn } from "../http/csv-stream";
import { offsetOf, paged } from "../http/pagination";
import { isoRange } from "../report-rows/date-range";
import { afterOf, CSV_PAGE_SIZE, offsetIn, pageAfterLastRow, type RowWindow } from "../report-rows/window";
import { reportTypes } from "./catalogue";
import type { ReturnsQuery, ReturnsRecord } from "./schemas";

type Filters = Pick<ReturnsQuery, "from" | "to">;

/** Every receipt line received in the range, with its return line's reason. */
function received(tenantDb: TenantDb, filters: Filters) {
  const range = isoRange(filters);
  return tenantDb.db
    .select({
      reason: returnLines.reason,
      disposition: returnReceiptLines.disposition,
      quantity: returnReceiptLines.quantity,
      returnId: returnReceiptLines.returnId,
    })
    .from(returnReceiptLines)
    .innerJoin(returnLines, sql`${returnLines.id} = ${returnReceiptLines.returnLineId}`)
    .where(
      inTenant(
        tenantDb,
        returnReceiptLines,
        gte(returnReceiptLines.createdAt, range.from),
        lt(returnReceiptLines.createdAt, range.to),
      ),
    )
    .as("received");
}

const units = (source: ReturnType<typeof received>) => sql<number>`sum(${source.quantity})`.mapWith(Number);

function rowsQuery(tenantDb: TenantDb, filters: Filters, window: RowWindow<ReturnsRecord>) {
  const source = received(tenantDb, filters);
  const after = afterOf(window);
  const keyset: SQL | undefined = after
    ? sql`(${source.reason}, ${source.disposition}) > (${after.reason}, ${after.disposition})`
    : undefined;
  return tenantDb.db
    .select({
      reason: source.reason,
      disposition: source.disposition,
      units: units(source),
      returns: sql<number>`count(distinct ${source.returnId})`.mapWith(Number),
    })
    .from(source)
    .where(keyset)
    .groupBy(source.reason, source.disposition)
    .orderBy(asc(source.reason), asc(source.disposition))
    .limit(window.limit)
    .offset(offsetIn(window));
}

/**
 * Units received back in the range per reason and disposition (restock, quarantine, scrap), with how many
 * returns they came on, and the units per reason and per disposition over the whole range.
 */
export async function returnsReport(tenantDb: TenantDb, query: ReturnsQuery) {
  const { db } = tenantDb;
  const source = received(tenantDb, query);
  const read = await runBatch(tenantDb, {
    page: rowsQuery(tenantDb, query, { offset: offsetOf(query), limit: query.pageSize }),
    count: db
      .select({ value: count() })
      .from(db.select({ one: sql`1` }).from(source).groupBy(source.reason, source.disposition).as("groups")),
    byReason: db
      .select({ reason: source.reason, units: units(source) })
      .from(source)
      .groupBy(source.reason)
      .orderBy(asc(source.reason)),
    byDisposition: db
      .select({ disposition: source.disposition, units: units(source) })
      .from(source)
      .groupBy(source.disposition)
      .orderBy(asc(source.disposition)),
  });
  return {
    ...paged(read.page, read.count[0]?.value ?? 0, query),
    totals: {
      units: read.byReason.reduce((sum, row) => sum + row.units, 0),
      byReason: read.byReason,
      byDisposition: read.byDisposition,
    },
  };
}

/** A page of the CSV download: the rows after the last one sent. */
export async function returnsPage(tenantDb: TenantDb, filters: Filters, after: ReturnsRecord | null) {
  const rows = await rowsQuery(tenantDb, filters, { after: after ?? undefined, limit: CSV_PAGE_SIZE });
  return pageAfterLastRow(rows, CSV_PAGE_SIZE);
}

export const returnsColumns: CsvColumn<ReturnsRecord>[] = [
  { header: "reason", cell: (r) => r.reason },
  { header: "disposition", cell: (r) => r.disposition },
  { header: "units", cell: (r) => r.units },
  { header: "returns", cell: (r) => r.returns },
];

/** The report as `GET /reports/returns` serves it (serve-report.ts). */
export const servedReturns = {
  type: reportTypes.returns.type,
  json: returnsReport,
  columns: returnsColumns,
  csvPage: returnsPage,
  range: (query: { from: number; to: number }) => query,
};
