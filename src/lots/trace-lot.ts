import { and, asc, desc, eq, ne, sql } from "drizzle-orm";
import { runBatch } from "../db/batch";
import type { TenantDb } from "../db/client";
import { orderReservations, orders, stockMovements } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import { notFound } from "../http/errors";
import { lotQuery, lotRecord } from "./records";

/**
 * `GET /lots/{id}/trace`, the recall question: every ledger row of the lot oldest first (where it came
 * from: receipts and their purchase orders; where it went: shipments and their sales orders, transfers,
 * adjustments), and the open sales orders still holding it.
 */
export async function traceLot(tdb: TenantDb, id: string) {
  const m = stockMovements;
  const read = await runBatch(tdb, {
    lot: lotQuery(tdb, id),
    movements: tdb.db
      .select({
        movementId: m.id,
        at: m.createdAt,
        locationId: m.locationId,
        warehouseId: m.warehouseId,
        delta: m.delta,
        reason: m.reason,
        referenceType: m.referenceType,
        referenceId: m.referenceId,
        orderNumber: orders.number,
        customerId: orders.customerId,
        supplier: orders.supplier,
      })
      .from(m)
      .leftJoin(
        orders,
        and(inTenant(tdb, orders, eq(orders.id, m.referenceId)), eq(m.referenceType, "order")),
      )
      .where(inTenant(tdb, m, eq(m.lotId, id), ne(m.lotId, "")))
      .orderBy(asc(m.createdAt), asc(m.id)),
    openOrders: tdb.db
      .select({
        orderId: orderReservations.orderId,
        orderNumber: orders.number,
        status: orders.status,
        customerId: orders.customerId,
        reserved: sql<number>`sum(${orderReservations.quantity})`.mapWith(Number),
      })
      .from(orderReservations)
      .innerJoin(orders, inTenant(tdb, orders, eq(orders.id, orderReservations.orderId)))
      .where(inTenant(tdb, orderReservations, eq(orderReservations.lotId, id)))
      .groupBy(orderReservations.orderId)
      .orderBy(desc(orders.createdAt)),
  });
  const [row] = read.lot;
  if (!row) throw notFound("Lot");
  return { lot: lotRecord(row), movements: read.movements, openOrders: read.openOrders };
}
