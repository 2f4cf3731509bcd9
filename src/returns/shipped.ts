import { eq, isNotNull, type SQL, sql } from "drizzle-orm";
import { inJsonArray, runBatch } from "../db/batch";
import type { TenantDb } from "../db/client";
import {
  locations,
  lots,
  orderLines,
  packageLines,
  returnLines,
  returnReceiptLines,
  returns,
  shipmentStock,
  shipments,
} from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";

// What a return may claim, from the shipment records: only units of dispatched shipments count as shipped
// (a packed shipment can still be cancelled; a dispatched one never is, so the figure only grows). A return
// line claims its quantity while the return is open, and only what it received once the return ended
// (closed, rejected or cancelled), so a short-closed return frees the rest for another.

/** A line's claim on its order line's shipped units, by its return's status (`r` is the return's row). */
const claimOf = sql`case when r.status in ('closed', 'rejected', 'cancelled') then rl.received_quantity else rl.quantity end`;

/** Units of `orderLineId` (an SQL expression) on dispatched shipments. */
export const shippedUnits = (tdb: TenantDb, orderLineId: SQL) =>
  sql`(select coalesce(sum(pl.quantity), 0) from ${packageLines} pl join ${shipments} s on s.id = pl.shipment_id
    where pl.tenant_id = ${tdb.tenantId} and pl.order_line_id = ${orderLineId} and s.status = 'dispatched')`;

/** Units of `orderLineId` (an SQL expression) that returns claim. */
export const claimedUnits = (tdb: TenantDb, orderLineId: SQL) =>
  sql`(select coalesce(sum(${claimOf}), 0) from ${returnLines} rl join ${returns} r on r.id = rl.return_id
    where rl.tenant_id = ${tdb.tenantId} and rl.order_line_id = ${orderLineId})`;

/** Per line of an order: units shipped (dispatched) and units its returns claim, read now. */
export async function shippedAndClaimed(tdb: TenantDb, orderId: string) {
  const line = sql`${orderLines.id}`;
  const rows = await tdb.db
    .select({
      id: orderLines.id,
      shipped: sql<number>`${shippedUnits(tdb, line)}`.mapWith(Number),
      claimed: sql<number>`${claimedUnits(tdb, line)}`.mapWith(Number),
    })
    .from(orderLines)
    .where(inTenant(tdb, orderLines, eq(orderLines.orderId, orderId)));
  return new Map(rows.map((r) => [r.id, r]));
}

/**
 * What shipped on an order (dispatched shipments) per order line: the lots and serial numbers, and the
 * warehouses the units left from (where a scrapped unit's write-off is booked by default).
 */
export async function shippedUnitsOf(tdb: TenantDb, orderId: string) {
  const dispatched = inTenant(
    tdb,
    shipments,
    eq(shipments.orderId, orderId),
    eq(shipments.status, "dispatched"),
  );
  const read = await runBatch(tdb, {
    lines: tdb.db
      .select({
        orderLineId: packageLines.orderLineId,
        lotNumber: sql<string | null>`${lots.number}`.as("lot_number"),
        serialNumbers: packageLines.serialNumbers,
      })
      .from(packageLines)
      .innerJoin(shipments, eq(shipments.id, packageLines.shipmentId))
      .leftJoin(lots, inTenant(tdb, lots, eq(lots.id, packageLines.lotId)))
      .where(dispatched),
    warehouses: tdb.db
      .selectDistinct({ orderLineId: shipmentStock.orderLineId, warehouseId: locations.warehouseId })
      .from(shipmentStock)
      .innerJoin(shipments, eq(shipments.id, shipmentStock.shipmentId))
      .innerJoin(locations, inTenant(tdb, locations, eq(locations.id, shipmentStock.locationId)))
      .where(dispatched),
  });
  return {
    lots: (lineId: string) =>
      new Set(read.lines.flatMap((l) => (l.orderLineId === lineId && l.lotNumber ? [l.lotNumber] : []))),
    serials: (lineId: string) =>
      new Set(read.lines.flatMap((l) => (l.orderLineId === lineId ? (l.serialNumbers ?? []) : []))),
    warehouse: (lineId: string) => read.warehouses.find((w) => w.orderLineId === lineId)?.warehouseId,
  };
}

/** Serials of the order lines `orderLineIds` already received back by any return, by order line. */
export async function returnedSerials(tdb: TenantDb, orderLineIds: readonly string[]) {
  const rows = await tdb.db
    .select({
      orderLineId: returnLines.orderLineId,
      number: returns.number,
      serialNumbers: returnReceiptLines.serialNumbers,
    })
    .from(returnReceiptLines)
    .innerJoin(returnLines, eq(returnLines.id, returnReceiptLines.returnLineId))
    .innerJoin(returns, eq(returns.id, returnReceiptLines.returnId))
    .where(
      inTenant(
        tdb,
        returnReceiptLines,
        inJsonArray(returnLines.orderLineId, [...orderLineIds]),
        isNotNull(returnReceiptLines.serialNumbers),
      ),
    );
  const onReturn = new Map(
    rows.flatMap((r) =>
      (r.serialNumbers ?? []).map((serial) => [`${r.orderLineId}|${serial}`, r.number] as const),
    ),
  );
  return (orderLineId: string, serial: string) => onReturn.get(`${orderLineId}|${serial}`);
}
