import { and, asc, count, desc, eq, gte, lt, lte, type SQL, sql } from "drizzle-orm";
import type { TenantDb } from "../db/client";
import { orders } from "../db/schema";
import { offsetOf, paged } from "../http/pagination";
import { orderSummary } from "./records";
import type { ListOrdersQuery } from "./schemas";

const sortColumns = {
  createdAt: orders.createdAt,
  updatedAt: orders.updatedAt,
  number: orders.number,
  status: orders.status,
  total: orders.totalE4,
};

const isDateOnly = (value: string) => value.length === 10;

function createdRange(from: string | undefined, to: string | undefined): SQL[] {
  const conditions: SQL[] = [];
  if (from) conditions.push(gte(orders.createdAt, new Date(from).toISOString()));
  if (to) {
    // A bare date includes the whole day: before the next midnight (UTC).
    const end = new Date(to);
    if (isDateOnly(to)) {
      end.setUTCDate(end.getUTCDate() + 1);
      conditions.push(lt(orders.createdAt, end.toISOString()));
    } else {
      conditions.push(lte(orders.createdAt, end.toISOString()));
    }
  }
  return conditions;
}

/** `search` matches part of the order number, case-insensitively; LIKE wildcards in it are literal. */
function numberContains(search: string): SQL {
  const escaped = search.replace(/[\\%_]/g, (ch) => `\\${ch}`);
  return sql`${orders.number} like ${`%${escaped}%`} escape '\\'`;
}

export async function listOrders(tdb: TenantDb, query: ListOrdersQuery) {
  const { db, tenantId } = tdb;
  const where = and(
    eq(orders.tenantId, tenantId),
    query.status ? eq(orders.status, query.status) : undefined,
    query.type ? eq(orders.type, query.type) : undefined,
    query.customerId ? eq(orders.customerId, query.customerId) : undefined,
    ...createdRange(query.createdFrom, query.createdTo),
    query.search ? numberContains(query.search) : undefined,
  );
  const order = query.sort.direction === "asc" ? asc : desc;
  // Spelled out: drizzle renders columns unqualified here, which would bind them to order_lines.
  const quantity = sql<number>`(select coalesce(sum(l.quantity), 0) from order_lines l
    where l.tenant_id = "orders"."tenant_id" and l.order_id = "orders"."id")`;
  const [rows, [total]] = await db.batch([
    db
      .select({ order: orders, quantity })
      .from(orders)
      .where(where)
      .orderBy(order(sortColumns[query.sort.field]), order(orders.id))
      .limit(query.pageSize)
      .offset(offsetOf(query)),
    db.select({ value: count() }).from(orders).where(where),
  ]);
  return paged(
    rows.map((r) => orderSummary(r.order, Number(r.quantity))),
    total?.value ?? 0,
    query,
  );
}
