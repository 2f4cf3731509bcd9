import { asc, eq, sql } from "drizzle-orm";
import { runBatch } from "../db/batch";
import type { TenantDb } from "../db/client";
import {
  orderLines,
  orderReservations,
  orderStatusHistory,
  orders,
  pickListLines,
  pickListPicks,
  products,
} from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import { notFound } from "../http/errors";

/**
 * An order with its lines, history and open reservations, in one round trip; 404 outside the tenant. With
 * `shown`, also what `GET /orders/{id}` shows beside: the units picked on pick lists per line, and the SKU and name
 * of each product of its lines and kit lines (so a page names them without a second read).
 */
export async function readOrder(tdb: TenantDb, orderId: string, options: { shown?: boolean } = {}) {
  const { db } = tdb;
  const read = await runBatch(tdb, {
    order: db
      .select()
      .from(orders)
      .where(inTenant(tdb, orders, eq(orders.id, orderId))),
    lines: db
      .select()
      .from(orderLines)
      .where(inTenant(tdb, orderLines, eq(orderLines.orderId, orderId)))
      .orderBy(asc(orderLines.lineNo)),
    history: db
      .select()
      .from(orderStatusHistory)
      .where(inTenant(tdb, orderStatusHistory, eq(orderStatusHistory.orderId, orderId)))
      .orderBy(asc(orderStatusHistory.createdAt), asc(orderStatusHistory.id)),
    reservations: db
      .select()
      .from(orderReservations)
      .where(inTenant(tdb, orderReservations, eq(orderReservations.orderId, orderId))),
    picked: options.shown
      ? db
          .select({ lineId: pickListLines.orderLineId, units: sql<number>`sum(${pickListPicks.quantity})` })
          .from(pickListPicks)
          .innerJoin(pickListLines, inTenant(tdb, pickListLines, eq(pickListLines.id, pickListPicks.lineId)))
          .where(
            inTenant(tdb, pickListPicks, eq(pickListLines.orderId, orderId), eq(pickListPicks.kind, "pick")),
          )
          .groupBy(pickListLines.orderLineId)
      : undefined,
    products: options.shown
      ? db
          .select({ id: products.id, sku: products.sku, name: products.name })
          .from(products)
          .where(
            inTenant(
              tdb,
              products,
              sql`${products.id} in (select ${orderLines.productId} from ${orderLines} where ${orderLines.tenantId} = ${tdb.tenantId} and ${orderLines.orderId} = ${orderId}
                union select json_extract(kit.value, '$.productId') from ${orders}, json_each(${orders.kitLines}) kit
                where ${orders.tenantId} = ${tdb.tenantId} and ${orders.id} = ${orderId})`,
            ),
          )
      : undefined,
  });
  const [row] = read.order;
  if (!row) throw notFound("Order");
  return {
    row,
    lines: read.lines,
    history: read.history,
    reservations: read.reservations,
    picked: new Map((read.picked ?? []).map((p) => [p.lineId, Number(p.units)])),
    products: new Map((read.products ?? []).map(({ id, ...named }) => [id, named])),
  };
}

export type LoadedOrder = Awaited<ReturnType<typeof readOrder>>;
