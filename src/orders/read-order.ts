import { and, asc, eq } from "drizzle-orm";
import type { TenantDb } from "../db/client";
import { orderLines, orderReservations, orderStatusHistory, orders } from "../db/schema";
import { notFound } from "../http/errors";

/** An order with its lines, history and open reservations, in one round trip; 404 outside the tenant. */
export async function readOrder(tdb: TenantDb, orderId: string) {
  const { db, tenantId } = tdb;
  const [[row], lines, history, reservations] = await db.batch([
    db
      .select()
      .from(orders)
      .where(and(eq(orders.tenantId, tenantId), eq(orders.id, orderId))),
    db
      .select()
      .from(orderLines)
      .where(and(eq(orderLines.tenantId, tenantId), eq(orderLines.orderId, orderId)))
      .orderBy(asc(orderLines.lineNo)),
    db
      .select()
      .from(orderStatusHistory)
      .where(and(eq(orderStatusHistory.tenantId, tenantId), eq(orderStatusHistory.orderId, orderId)))
      .orderBy(asc(orderStatusHistory.createdAt), asc(orderStatusHistory.id)),
    db
      .select()
      .from(orderReservations)
      .where(and(eq(orderReservations.tenantId, tenantId), eq(orderReservations.orderId, orderId))),
  ]);
  if (!row) throw notFound("Order");
  return { row, lines, history, reservations };
}

export type LoadedOrder = Awaited<ReturnType<typeof readOrder>>;
