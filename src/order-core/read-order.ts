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
} from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import { notFound } from "../http/errors";

/**
 * An order with its lines, history and open reservations, in one round trip; 404 outside the tenant. With
 * `picked`, also the units picked on pick lists per line (what `GET /orders/{id}` shows).
 */
export async function readOrder(tdb: TenantDb, orderId: string, options: { picked?: boolean } = {}) {
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
    picked: options.picked
      ? db
          .select({ lineId: pickListLines.orderLineId, units: sql<number>`sum(${pickListPicks.quantity})` })
          .from(pickListPicks)
          .innerJoin(pickListLines, inTenant(tdb, pickListLines, eq(pickListLines.id, pickListPicks.lineId)))
          .where(
            inTenant(tdb, pickListPicks, eq(pickListLines.orderId, orderId), eq(pickListPicks.kind, "pick")),
          )
          .groupBy(pickListLines.orderLineId)
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
  };
}

export type LoadedOrder = Awaited<ReturnType<typeof readOrder>>;
