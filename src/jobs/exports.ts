import { and, asc, count, getTableColumns, gt, gte, inArray, lt, lte, sql } from "drizzle-orm";
import { runBatch } from "../db/batch";
import type { TenantDb } from "../db/client";
import { jobSnapshotRows, jobs, outboxEvents, products } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import { csvRecord } from "../http/csv-record";
import type { CsvColumn } from "../http/csv-stream";
import { feedTypes } from "../outbox/catalog";
import { noParts } from "../product-core/parts";
import { type ProductRow, productRecord } from "../product-core/records";
import { type MovementRow, movementColumns, movementRows } from "../report-rows/stock-movement-rows";
import type { JobType } from "./catalogue";
import type { JobRow } from "./job-rows";

// The exports: each reads ONE snapshot, so a row changed while the job runs is in the file once, in one state.
// Products and stock levels change in place: the snapshot is a copy of them made by ONE statement (SQLite reads
// one state for a statement), from which the parts are written. The ledger and the events only grow: the
// snapshot is their last row (ledger rowid, event seq) when the job starts, and the parts read up to it.

/** Rows per part: one step, one R2 object. */
export const ROWS_PER_PART = 5000;

type ExportType = Exclude<JobType, "product_import" | "stock_import">;
type Cursor = string | number | null;

interface ExportDefinition<Row> {
  columns: readonly CsvColumn<Row>[];
  /** ONE batch: the snapshot taken and the job's `asOf`, `asOfSeq` and `total` set. */
  snapshot(tdb: TenantDb, job: JobRow, now: string): Promise<unknown>;
  /** The snapshot's rows after `after` (null: from the first), and the cursor after them (null: the last). */
  page(tdb: TenantDb, job: JobRow, after: Cursor): Promise<{ rows: Row[]; next: Cursor }>;
}

/** An export as the job's steps run it: its header, its snapshot, and its parts as CSV text. */
export interface ExportKind {
  headers: string[];
  snapshot(tdb: TenantDb, job: JobRow, now: string): Promise<unknown>;
  part(tdb: TenantDb, job: JobRow, after: Cursor): Promise<{ rows: number; text: string; next: Cursor }>;
}

function exportKind<Row>(definition: ExportDefinition<Row>): ExportKind {
  return {
    headers: definition.columns.map((column) => column.header),
    snapshot: definition.snapshot,
    part: async (tdb, job, after) => {
      const { rows, next } = await definition.page(tdb, job, after);
      const text = rows
        .map((row) => csvRecord(definition.columns.map((column) => column.cell(row))))
        .join("");
      return { rows: rows.length, text, next };
    },
  };
}

const ofJob = (tdb: TenantDb, job: JobRow) => sql`tenant_id = ${tdb.tenantId} and id = ${job.id}`;
const lastEventSeq = (tdb: TenantDb) =>
  sql`(select coalesce(max(seq), 0) from outbox_events where tenant_id = ${tdb.tenantId})`;

/** A copy of rows into the job's snapshot, numbered in export order, and the job's snapshot fields, in ONE batch. */
function copySnapshot(tdb: TenantDb, job: JobRow, now: string, select: ReturnType<typeof sql>) {
  return runBatch(tdb, {
    // A retried step copies again: nothing has been read from the copy before this step ends.
    cleared: tdb.db.delete(jobSnapshotRows).where(sql`tenant_id = ${tdb.tenantId} and job_id = ${job.id}`),
    copied: sql`insert into job_snapshot_rows (tenant_id, job_id, n, row) ${select}`,
    job: sql`update jobs set as_of = ${now}, as_of_seq = ${lastEventSeq(tdb)},
      total = (select count(*) from job_snapshot_rows where tenant_id = ${tdb.tenantId} and job_id = ${job.id})
      where ${ofJob(tdb, job)}`,
  });
}

/** The copy's rows after `after` (their numbers start at 1). */
async function snapshotPage(tdb: TenantDb, job: JobRow, after: Cursor) {
  const rows = await tdb.db
    .select({ n: jobSnapshotRows.n, row: jobSnapshotRows.row })
    .from(jobSnapshotRows)
    .where(
      and(
        sql`${jobSnapshotRows.tenantId} = ${tdb.tenantId} and ${jobSnapshotRows.jobId} = ${job.id}`,
        gt(jobSnapshotRows.n, Number(after ?? 0)),
      ),
    )
    .orderBy(asc(jobSnapshotRows.n))
    .limit(ROWS_PER_PART);
  return {
    rows: rows.map((r) => r.row),
    next: rows.length < ROWS_PER_PART ? null : (rows.at(-1)?.n ?? null),
  };
}

// Every column of a product, by its field name, so a copied row reads back as the row itself.
const productJson = sql.join(
  Object.entries(getTableColumns(products)).map(([field, column]) => sql`${field}, ${column}`),
  sql`, `,
);

const productsExport: ExportDefinition<Record<string, unknown>> = {
  // The columns a product import reads: an export imports back as it is.
  columns: (
    [
      "sku",
      "name",
      "barcode",
      "category",
      "unit",
      "price",
      "cost",
      "reorderPoint",
      "tracking",
      "status",
      "description",
    ] as const
  ).map((field) => ({
    header: field,
    // Plain fields only (an import reads no parts), so the row's parts are not read.
    cell: (row) => productRecord(row as unknown as ProductRow, noParts)[field],
  })),
  snapshot: (tdb, job, now) =>
    copySnapshot(
      tdb,
      job,
      now,
      sql`select ${tdb.tenantId}, ${job.id}, row_number() over (order by sku), json_object(${productJson})
        from products where ${inTenant(tdb, products)}`,
    ),
  page: snapshotPage,
};

const stockColumns = [
  "sku",
  "warehouseCode",
  "locationCode",
  "lotNumber",
  "onHand",
  "reserved",
  "available",
] as const;

const stockExport: ExportDefinition<Record<string, unknown>> = {
  // What a stock import reads (it sets `onHand`; reserved and available are shown and not imported).
  columns: stockColumns.map((field) => ({
    header: field,
    cell: (row) =>
      field === "available"
        ? Number(row.onHand) - Number(row.reserved)
        : (row[field] as string | number | null),
  })),
  snapshot: (tdb, job, now) =>
    copySnapshot(
      tdb,
      job,
      now,
      sql`select ${tdb.tenantId}, ${job.id}, row_number() over (order by p.sku, w.code, l.code, lots.number),
          json_object('sku', p.sku, 'warehouseCode', w.code, 'locationCode', l.code, 'lotNumber', lots.number,
            'onHand', s.on_hand, 'reserved', s.reserved)
        from stock_levels s
        join products p on p.tenant_id = s.tenant_id and p.id = s.product_id
        join locations l on l.tenant_id = s.tenant_id and l.id = s.location_id
        join warehouses w on w.tenant_id = s.tenant_id and w.id = s.warehouse_id
        left join lots on lots.tenant_id = s.tenant_id and lots.id = s.lot_id
        where s.tenant_id = ${tdb.tenantId} and (s.on_hand > 0 or s.reserved > 0)`,
    ),
  page: snapshotPage,
};

// A range's end when none is given: past any stored instant (the snapshot bounds the rows anyway).
const END_OF_TIME = Date.parse("9999-12-31T23:59:59.999Z");
const rangeOf = (job: JobRow) => ({
  from: typeof job.options.from === "string" ? Date.parse(job.options.from) : 0,
  to: typeof job.options.to === "string" ? Date.parse(job.options.to) : END_OF_TIME,
});

const movementsExport: ExportDefinition<MovementRow> = {
  // The columns of the stock movements report's CSV.
  columns: movementColumns,
  snapshot: async (tdb, job, now) => {
    const range = rangeOf(job);
    return runBatch(tdb, {
      job: sql`update jobs set as_of = ${now},
          as_of_seq = (select coalesce(max(rowid), 0) from stock_movements)
        where ${ofJob(tdb, job)}`,
      total: sql`update jobs set total = (select count(*) from stock_movements m where m.tenant_id = ${tdb.tenantId}
          and m.created_at >= ${new Date(range.from).toISOString()} and m.created_at < ${new Date(range.to).toISOString()}
          and m.rowid <= jobs.as_of_seq)
        where ${ofJob(tdb, job)}`,
    });
  },
  page: async (tdb, job, after) => {
    const rows = await movementRows(
      tdb,
      rangeOf(job),
      {
        after: after === null ? undefined : (JSON.parse(String(after)) as MovementRow),
        limit: ROWS_PER_PART,
      },
      job.asOfSeq ?? 0,
    );
    const last = rows.at(-1);
    return {
      rows,
      next:
        rows.length < ROWS_PER_PART || !last
          ? null
          : JSON.stringify({ createdAt: last.createdAt, id: last.id }),
    };
  },
};

interface EventRow {
  seq: number;
  id: string;
  type: string;
  timestamp: string;
  data: unknown;
}

/** The events of the job's types and range up to its snapshot's seq. */
function eventsOfJob(tdb: TenantDb, job: JobRow, ...more: ReturnType<typeof gt>[]) {
  const range = rangeOf(job);
  const types = (job.options.types as string[] | undefined) ?? [...feedTypes];
  return inTenant(
    tdb,
    outboxEvents,
    inArray(outboxEvents.type, types),
    gte(outboxEvents.createdAt, new Date(range.from).toISOString()),
    lt(outboxEvents.createdAt, new Date(range.to).toISOString()),
    ...more,
  );
}

const eventsExport: ExportDefinition<EventRow> = {
  columns: [
    { header: "seq", cell: (e) => e.seq },
    { header: "id", cell: (e) => e.id },
    { header: "type", cell: (e) => e.type },
    { header: "timestamp", cell: (e) => e.timestamp },
    { header: "data", cell: (e) => JSON.stringify(e.data) },
  ],
  snapshot: async (tdb, job, now) => {
    const [last] = await tdb.db
      .select({ seq: sql<number>`coalesce(max(${outboxEvents.seq}), 0)`.mapWith(Number) })
      .from(outboxEvents)
      .where(inTenant(tdb, outboxEvents));
    const seq = last?.seq ?? 0;
    return runBatch(tdb, {
      job: tdb.db
        .update(jobs)
        .set({
          asOf: now,
          asOfSeq: seq,
          total: sql`(${tdb.db
            .select({ n: count() })
            .from(outboxEvents)
            .where(eventsOfJob(tdb, job, lte(outboxEvents.seq, seq)))})`,
        })
        .where(sql`${ofJob(tdb, job)}`),
    });
  },
  page: async (tdb, job, after) => {
    const rows = await tdb.db
      .select({
        seq: outboxEvents.seq,
        id: outboxEvents.id,
        type: outboxEvents.type,
        timestamp: outboxEvents.createdAt,
        data: outboxEvents.payload,
      })
      .from(outboxEvents)
      .where(
        eventsOfJob(
          tdb,
          job,
          gt(outboxEvents.seq, Number(after ?? 0)),
          lte(outboxEvents.seq, job.asOfSeq ?? 0),
        ),
      )
      .orderBy(asc(outboxEvents.seq))
      .limit(ROWS_PER_PART);
    return { rows, next: rows.length < ROWS_PER_PART ? null : (rows.at(-1)?.seq ?? null) };
  },
};

export const exportKinds: Record<ExportType, ExportKind> = {
  products_export: exportKind(productsExport),
  stock_export: exportKind(stockExport),
  movements_export: exportKind(movementsExport),
  events_export: exportKind(eventsExport),
};

/** The CSV header row of a job's result: the export's columns, or the import's error report's. */
export const resultColumns = (type: JobType): string[] =>
  type === "product_import" || type === "stock_import" ? ["line", "errors"] : exportKinds[type].headers;
