import { asc, count, sql } from "drizzle-orm";
import { runBatch } from "../db/batch";
import type { TenantDb } from "../db/client";
import { stockMovements } from "../db/schema/tenant";
import { offsetOf, paged } from "../http/pagination";
import {
  type MovementFilters,
  type MovementRow,
  movementColumns,
  movementRows,
  movementsMatching,
} from "../report-rows/stock-movement-rows";
import { CSV_PAGE_SIZE, pageAfterLastRow } from "../report-rows/window";
import { reportTypes } from "./catalogue";
import type { StockMovementsQuery } from "./schemas";

/** Movements, units in and out, and net change per UTC day of the range (days without movements are absent). */
function perDay(tenantDb: TenantDb, filters: MovementFilters) {
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
    .where(movementsMatching(tenantDb, filters))
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
export async function movementPage(tenantDb: TenantDb, filters: MovementFilters, after: MovementRow | null) {
  const rows = await movementRows(tenantDb, filters, { after: after ?? undefined, limit: CSV_PAGE_SIZE });
  return pageAfterLastRow(rows, CSV_PAGE_SIZE);
}

/** The report as `GET /reports/stock-movements` serves it (serve-report.ts). */
export const servedStockMovements = {
  type: reportTypes.stockMovements.type,
  json: stockMovementsReport,
  columns: movementColumns,
  csvPage: movementPage,
  range: (query: { from: number; to: number }) => query,
};
