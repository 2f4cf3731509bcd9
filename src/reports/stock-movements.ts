import { and, asc, count, eq, gte, lt, type SQL, sql } from "drizzle-orm";
import { runBatch } from "../db/batch";
import type { TenantDb } from "../db/client";
import { locations, products, stockMovements, warehouses } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import type { CsvColumn } from "../http/csv-stream";
import { offsetOf, paged } from "../http/pagination";
import { reportTypes } from "./catalogue";
import { isoRange } from "./date-range";
import type { StockMovementsQuery } from "./schemas";
import { afterOf, CSV_PAGE_SIZE, offsetIn, pageAfterLastRow, type RowWindow } from "./window";

type Filters = Pick<
  StockMovementsQuery,
  "from" | "to" | "productId" | "locationId" | "warehouseId" | "reason"
>;

function matching(tenantDb: TenantDb, filters: Filters, keyset?: SQL): SQL {
  const range = isoRange(filters);
  return inTenant(
    tenantDb,
    stockMovements,
    gte(stockMovements.createdAt, range.from),
    lt(stockMovements.createdAt, range.to),
    filters.productId ? eq(stockMovements.productId, filters.productId) : undefined,
    filters.locationId ? eq(stockMovements.locationId, filters.locationId) : undefined,
    filters.warehouseId ? eq(stockMovements.warehouseId, filters.warehouseId) : undefined,
    filters.reason ? eq(stockMovements.reason, filters.reason) : undefined,
    keyset,
  );
}

/** The ledger in time order, with the product, location and warehouse named (left joins: the ledger is never hidden). */
export function movementRows(
  tenantDb: TenantDb,
  filters: Filters,
  window: RowWindow<{ createdAt: string; id: string }>,
  /** Only ledger rows up to this one (by rowid): a snapshot of the append-only ledger (a movements export). */
  throughRowid?: number,
) {
  const after = afterOf(window);
  // The plain `>=` lets SQLite start the index range at the last row sent instead of at `from`.
  const keyset = and(
    after
      ? and(
          gte(stockMovements.createdAt, after.createdAt),
          sql`(${stockMovements.createdAt}, ${stockMovements.id}) > (${after.createdAt}, ${after.id})`,
        )
      : undefined,
    throughRowid === undefined ? undefined : sql`${stockMovements}.rowid <= ${throughRowid}`,
  );
  return tenantDb.db
    .select({
      id: stockMovements.id,
      createdAt: stockMovements.createdAt,
      productId: stockMovements.productId,
      sku: products.sku,
      productName: products.name,
      warehouseId: stockMovements.warehouseId,
      // Aliased: drizzle's D1 batch maps columns by name, and both codes are `code`.
      warehouseCode: sql<string | null>`${warehouses.code}`.as("warehouse_code"),
      locationId: stockMovements.locationId,
      locationCode: sql<string | null>`${locations.code}`.as("location_code"),
      delta: stockMovements.delta,
      onHandAfter: stockMovements.onHandAfter,
      reason: stockMovements.reason,
      referenceType: stockMovements.referenceType,
      referenceId: stockMovements.referenceId,
      notes: stockMovements.notes,
      actorType: stockMovements.actorType,
      actorId: stockMovements.actorId,
    })
    .from(stockMovements)
    .leftJoin(products, inTenant(tenantDb, products, eq(products.id, stockMovements.productId)))
    .leftJoin(locations, inTenant(tenantDb, locations, eq(locations.id, stockMovements.locationId)))
    .leftJoin(warehouses, inTenant(tenantDb, warehouses, eq(warehouses.id, stockMovements.warehouseId)))
    .where(matching(tenantDb, filters, keyset))
    .orderBy(asc(stockMovements.createdAt), asc(stockMovements.id))
    .limit(window.limit)
    .offset(offsetIn(window));
}

export type MovementRow = Awaited<ReturnType<typeof movementRows>>[number];

/** Movements, units in and out, and net change per UTC day of the range (days without movements are absent). */
function perDay(tenantDb: TenantDb, filters: Filters) {
  const day = sql<string>`substr(${stockMovements.createdAt}, 1, 10)`;
  const delta = stockMovements.delta;
  return tenantDb.db
    .select({
      day: day.as("day"),
      movements: count(),
      unitsIn: sql<number>`sum(case when ${delta} > 0 then ${delta} else 0 end)`.mapWith(Number),
      unitsOut: sql<number>`sum(case when ${delta} < 0 then -${delta} else 0 end)`.mapWith(Number),
      netDelta: sql<number>`sum(${delta})`.mapWith(Number),
    })
    .from(stockMovements)
    .where(matching(tenantDb, filters))
    .groupBy(day)
    .orderBy(asc(day));
}

/** A page of the ledger, oldest first, with the count and net change over the whole range and per day. */
export async function stockMovementsReport(tenantDb: TenantDb, query: StockMovementsQuery) {
  const { rows, byDay } = await runBatch(tenantDb, {
    rows: movementRows(tenantDb, query, { offset: offsetOf(query), limit: query.pageSize }),
    byDay: perDay(tenantDb, query),
  });
  const movements = byDay.reduce((sum, day) => sum + day.movements, 0);
  const netDelta = byDay.reduce((sum, day) => sum + day.netDelta, 0);
  return { ...paged(rows, movements, query), totals: { movements, netDelta, byDay } };
}

/** A page of the CSV download: the rows after the last one sent. */
export async function movementPage(tenantDb: TenantDb, filters: Filters, after: MovementRow | null) {
  const rows = await movementRows(tenantDb, filters, { after: after ?? undefined, limit: CSV_PAGE_SIZE });
  return pageAfterLastRow(rows, CSV_PAGE_SIZE);
}

export const movementColumns: CsvColumn<MovementRow>[] = [
  { header: "createdAt", cell: (r) => r.createdAt },
  { header: "sku", cell: (r) => r.sku },
  { header: "productName", cell: (r) => r.productName },
  { header: "warehouseCode", cell: (r) => r.warehouseCode },
  { header: "locationCode", cell: (r) => r.locationCode },
  { header: "delta", cell: (r) => r.delta },
  { header: "onHandAfter", cell: (r) => r.onHandAfter },
  { header: "reason", cell: (r) => r.reason },
  { header: "referenceType", cell: (r) => r.referenceType },
  { header: "referenceId", cell: (r) => r.referenceId },
  { header: "notes", cell: (r) => r.notes },
  { header: "actorType", cell: (r) => r.actorType },
  { header: "actorId", cell: (r) => r.actorId },
  { header: "id", cell: (r) => r.id },
  { header: "productId", cell: (r) => r.productId },
  { header: "locationId", cell: (r) => r.locationId },
  { header: "warehouseId", cell: (r) => r.warehouseId },
];

/** The report as `GET /reports/stock-movements` serves it (serve-report.ts). */
export const servedStockMovements = {
  type: reportTypes.stockMovements.type,
  json: stockMovementsReport,
  columns: movementColumns,
  csvPage: movementPage,
  range: (query: { from: number; to: number }) => query,
};
