import { count, eq, or, sql } from "drizzle-orm";
import { inJsonArray } from "../db/batch";
import type { TenantDb } from "../db/client";
import { assertMerchantNamed } from "../db/merchant-named";
import { readPage, sortedBy } from "../db/pages";
import { orders } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import { contains } from "../db/text-match";
import { between } from "../db/time-range";
import { orderSummary } from "../order-core/records";
import type { ListOrdersQuery } from "./schemas";

const sortColumns = {
  createdAt: orders.createdAt,
  updatedAt: orders.updatedAt,
  number: orders.number,
  status: orders.status,
  total: orders.totalE4,
};

/**
 * `GET /orders`. A bare date as `createdTo` includes that whole day. A merchant filter names a merchant the caller
 * sees (404 otherwise, as billing's lists answer), so a mistyped or foreign id is not an empty list.
 */
export async function listOrders(tdb: TenantDb, query: ListOrdersQuery) {
  const { db } = tdb;
  if (query.merchantId) await assertMerchantNamed(tdb, query.merchantId);
  const where = inTenant(
    tdb,
    orders,
    query.status ? eq(orders.status, query.status) : undefined,
    query.type ? eq(orders.type, query.type) : undefined,
    query.customerId ? eq(orders.customerId, query.customerId) : undefined,
    query.merchantId ? eq(orders.merchantId, query.merchantId) : undefined,
    query.ids ? inJsonArray(orders.id, query.ids) : undefined,
    ...between(orders.createdAt, query.createdFrom, query.createdTo),
    query.search
      ? or(
          contains(orders.number, query.search),
          contains(orders.customerName, query.search),
          contains(orders.supplier, query.search),
        )
      : undefined,
  );
  // Spelled out: drizzle renders columns unqualified here, which would bind them to order_lines.
  const quantity = sql<number>`(select coalesce(sum(l.quantity), 0) from order_lines l
    where l.tenant_id = "orders"."tenant_id" and l.order_id = "orders"."id")`;
  return readPage(
    tdb,
    query,
    {
      rows: db.select({ order: orders, quantity }).from(orders).where(where),
      order: sortedBy(sortColumns, orders.id, query.sort),
      count: db.select({ value: count() }).from(orders).where(where),
    },
    (r) => orderSummary(r.order, Number(r.quantity)),
  );
}
