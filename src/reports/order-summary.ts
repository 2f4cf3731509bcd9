import { asc, eq, gte, lt, type SQL, sql } from "drizzle-orm";
import { runBatch } from "../db/batch";
import type { TenantDb } from "../db/client";
import { orders } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import type { CsvColumn } from "../http/csv-stream";
import { offsetOf, paged } from "../http/pagination";
import { exactMoneyWithText } from "../money";
import { isoRange } from "../report-rows/date-range";
import { afterOf, CSV_PAGE_SIZE, offsetIn, pageAfterLastRow, type RowWindow } from "../report-rows/window";
import { reportTypes } from "./catalogue";
import { exactSumOfProducts } from "./exact-sum";
import type { OrderSummaryQuery, OrderSummaryRecord } from "./schemas";

type Filters = Pick<OrderSummaryQuery, "from" | "to" | "type">;

// Spelled out: drizzle renders columns unqualified inside a subquery's select, which would make
// `order_id = id` compare order_lines with itself.
const orderValueE4 = sql.raw(
  "coalesce((select sum(l.quantity * l.unit_price_e4) from order_lines l" +
    " where l.tenant_id = orders.tenant_id and l.order_id = orders.id), 0)",
);

/**
 * One row per order created in the range: its UTC day, type, current status and exact value in e4 (an order's
 * total is at most 2^53 - 1 ten-thousandths: orders with more are refused).
 */
function perOrder(tenantDb: TenantDb, filters: Filters) {
  const range = isoRange(filters);
  return tenantDb.db
    .select({
      day: sql<string>`substr(${orders.createdAt}, 1, 10)`.as("day"),
      type: orders.type,
      status: orders.status,
      valueE4: sql<number>`${orderValueE4}`.as("value_e4"),
    })
    .from(orders)
    .where(
      inTenant(
        tenantDb,
        orders,
        gte(orders.createdAt, range.from),
        lt(orders.createdAt, range.to),
        filters.type ? eq(orders.type, filters.type) : undefined,
      ),
    )
    .as("per_order");
}

/** The exact sum of order values: past 1,024 large orders it would overflow SQLite's 64 bits. */
const orderValues = (valueE4: SQL.Aliased<number>) => exactSumOfProducts(sql`1`, valueE4, 53);

function summaryQuery(tenantDb: TenantDb, filters: Filters, window: RowWindow<OrderSummaryRecord>) {
  const source = perOrder(tenantDb, filters);
  const after = afterOf(window);
  const keyset: SQL | undefined = after
    ? sql`(${source.day}, ${source.type}, ${source.status}) > (${after.day}, ${after.type}, ${after.status})`
    : undefined;
  return tenantDb.db
    .select({
      day: source.day,
      type: source.type,
      status: source.status,
      orders: sql<number>`count(*)`.mapWith(Number),
      valueE4: orderValues(source.valueE4),
    })
    .from(source)
    .where(keyset)
    .groupBy(sql`${source.day}`, source.type, source.status)
    .orderBy(asc(source.day), asc(source.type), asc(source.status))
    .limit(window.limit)
    .offset(offsetIn(window));
}

function toRow({ valueE4, ...row }: Awaited<ReturnType<typeof summaryQuery>>[number]): OrderSummaryRecord {
  return { ...row, ...exactMoneyWithText("value", valueE4) };
}

/** Rows by day, type, then status. */
export async function orderSummaryRows(
  tenantDb: TenantDb,
  filters: Filters,
  window: RowWindow<OrderSummaryRecord>,
): Promise<OrderSummaryRecord[]> {
  return (await summaryQuery(tenantDb, filters, window)).map(toRow);
}

/** A page of (day, type, status) rows with the totals per type and status over the whole range. */
export async function orderSummary(tenantDb: TenantDb, query: OrderSummaryQuery) {
  const { db } = tenantDb;
  const source = perOrder(tenantDb, query);
  const read = await runBatch(tenantDb, {
    page: summaryQuery(tenantDb, query, { offset: offsetOf(query), limit: query.pageSize }),
    count: db
      .select({
        value:
          sql<number>`count(distinct ${source.day} || '|' || ${source.type} || '|' || ${source.status})`.mapWith(
            Number,
          ),
      })
      .from(source),
    byStatus: db
      .select({
        type: source.type,
        status: source.status,
        orders: sql<number>`count(*)`.mapWith(Number),
        valueE4: orderValues(source.valueE4),
      })
      .from(source)
      .groupBy(source.type, source.status)
      .orderBy(asc(source.type), asc(source.status)),
  });
  const byStatus = read.byStatus;
  return {
    ...paged(read.page.map(toRow), read.count[0]?.value ?? 0, query),
    totals: {
      orders: byStatus.reduce((sum, row) => sum + row.orders, 0),
      byStatus: byStatus.map(({ valueE4, ...row }) => ({ ...row, ...exactMoneyWithText("value", valueE4) })),
    },
  };
}

/** A page of the CSV download: the rows after the last one sent. */
export async function orderSummaryPage(
  tenantDb: TenantDb,
  filters: Filters,
  after: OrderSummaryRecord | null,
) {
  const rows = await orderSummaryRows(tenantDb, filters, { after: after ?? undefined, limit: CSV_PAGE_SIZE });
  return pageAfterLastRow(rows, CSV_PAGE_SIZE);
}

export const orderSummaryColumns: CsvColumn<OrderSummaryRecord>[] = [
  { header: "day", cell: (r) => r.day },
  { header: "type", cell: (r) => r.type },
  { header: "status", cell: (r) => r.status },
  { header: "orders", cell: (r) => r.orders },
  { header: "value", cell: (r) => r.value },
];

/** The report as `GET /reports/order-summary` serves it (serve-report.ts). */
export const servedOrderSummary = {
  type: reportTypes.orderSummary.type,
  json: orderSummary,
  columns: orderSummaryColumns,
  csvPage: orderSummaryPage,
  range: (query: { from: number; to: number }) => query,
};
