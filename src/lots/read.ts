import { and, asc, count, desc, eq, gt, lt, lte, ne, type SQL, sql } from "drizzle-orm";
import { runBatch } from "../db/batch";
import type { TenantDb } from "../db/client";
import { readPage } from "../db/pages";
import { locations, lots, orderReservations, orders, stockLevels, stockMovements } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import { notFound } from "../http/errors";
import { offsetOf } from "../http/pagination";
import { isExpired, today } from "../stock/expiry";
import { available } from "../stock/projections";
import type { LotRecord, LotsQuery } from "./schemas";

type LotRow = typeof lots.$inferSelect;

export const lotRecord = (row: LotRow, day = today()): LotRecord => ({
  id: row.id,
  productId: row.productId,
  number: row.number,
  expiresAt: row.expiresAt,
  manufacturedAt: row.manufacturedAt,
  expired: isExpired(row.expiresAt, day),
  createdAt: row.createdAt,
});

/** `GET /lots`: soonest expiry first (lots without expiry last), then number. */
export function listLots(tdb: TenantDb, query: LotsQuery) {
  const day = today();
  const filters: (SQL | undefined)[] = [
    query.productId ? eq(lots.productId, query.productId) : undefined,
    query.number ? eq(lots.number, query.number) : undefined,
    query.expiringBefore ? lt(lots.expiresAt, query.expiringBefore) : undefined,
    query.expired === true ? lte(lots.expiresAt, day) : undefined,
    query.expired === false ? sql`(${lots.expiresAt} is null or ${gt(lots.expiresAt, day)})` : undefined,
  ];
  return readPage(
    tdb,
    query,
    {
      rows: tdb.db
        .select()
        .from(lots)
        .where(inTenant(tdb, lots, ...filters))
        .orderBy(sql`${lots.expiresAt} is null`, asc(lots.expiresAt), asc(lots.number), asc(lots.id))
        .limit(query.pageSize)
        .offset(offsetOf(query)),
      count: tdb.db
        .select({ value: count() })
        .from(lots)
        .where(inTenant(tdb, lots, ...filters)),
    },
    (row) => lotRecord(row, day),
  );
}

const lotQuery = (tdb: TenantDb, id: string) =>
  tdb.db
    .select()
    .from(lots)
    .where(inTenant(tdb, lots, eq(lots.id, id)));

/** `GET /lots/{id}`: the lot with its stock per location (404 outside the tenant). */
export async function readLot(tdb: TenantDb, id: string) {
  const read = await runBatch(tdb, {
    lot: lotQuery(tdb, id),
    stock: tdb.db
      .select({
        locationId: stockLevels.locationId,
        locationCode: locations.code,
        warehouseId: stockLevels.warehouseId,
        onHand: stockLevels.onHand,
        reserved: stockLevels.reserved,
        available,
      })
      .from(stockLevels)
      .innerJoin(locations, inTenant(tdb, locations, eq(locations.id, stockLevels.locationId)))
      .where(inTenant(tdb, stockLevels, eq(stockLevels.lotId, id), gt(stockLevels.onHand, 0)))
      .orderBy(asc(locations.code)),
  });
  const [row] = read.lot;
  if (!row) throw notFound("Lot");
  return { ...lotRecord(row), stock: read.stock, onHand: read.stock.reduce((sum, s) => sum + s.onHand, 0) };
}

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
