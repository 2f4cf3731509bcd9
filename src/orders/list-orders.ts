import { asc, count, desc, eq, type SQL, sql } from "drizzle-orm";
import type { TenantDb } from "../db/client";
import { readPage } from "../db/pages";
import { orders } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import { between } from "../db/time-range";
import { offsetOf } from "../http/pagination";
import { orderSummary } from "./records";
import type { ListOrdersQuery } from "./schemas";

const sortColumns = {
  createdAt: orders.createdAt,
  updatedAt: orders.updatedAt,
  number: orders.number,
  status: orders.status,
  total: orders.totalE4,
};

/** `search` matches part of the order number, case-insensitively; LIKE wildcards in it are literal. */
function numberContains(search: string): SQL {
  const escaped = search.replace(/[\\%_]/g, (ch) => `\\${ch}`);
  return sql`${orders.number} like ${`%${escaped}%`} escape '\\'`;
}

/** `GET /orders`. A bare date as `createdTo` includes that whole day. */
export function listOrders(tdb: TenantDb, query: ListOrdersQuery) {
  const { db } = tdb;
  const where = inTenant(
    tdb,
    orders,
    query.status ? eq(orders.status, query.status) : undefined,
    query.type ? eq(orders.type, query.type) : undefined,
    query.customerId ? eq(orders.customerId, query.customerId) : undefined,
    ...between(orders.createdAt, query.createdFrom, query.createdTo),
    query.search ? numberContains(query.search) : undefined,
  );
  const order = query.sort.direction === "asc" ? asc : desc;
  // Spelled out: drizzle renders columns unqualified here, which would bind them to order_lines.
  const quantity = sql<number>`(select coalesce(sum(l.quantity), 0) from order_lines l
    where l.tenant_id = "orders"."tenant_id" and l.order_id = "orders"."id")`;
  return readPage(
    tdb,
    query,
    {
      rows: db
        .select({ order: orders, quantity })
        .from(orders)
        .where(where)
        .orderBy(order(sortColumns[query.sort.field]), order(orders.id))
        .limit(query.pageSize)
        .offset(offsetOf(query)),
      count: db.select({ value: count() }).from(orders).where(where),
    },
    (r) => orderSummary(r.order, Number(r.quantity)),
  );
}
