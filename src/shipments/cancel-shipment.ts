import { and, eq, type SQL, sql } from "drizzle-orm";
import type { Actor } from "../auth/principal";
import { changesOf, inJsonArray, runBatch } from "../db/batch";
import type { TenantDb } from "../db/client";
import { answerFor } from "../db/constraint-errors";
import {
  locations,
  orders,
  packageLines,
  serialNumbers,
  shipmentStock,
  shipments,
} from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import { conflict, notFound } from "../http/errors";
import { historyInsert } from "../order-core/history";
import { readOrder } from "../order-core/read-order";
import { historyEntry, orderRecord } from "../order-core/records";
import { atVersion } from "../order-core/version-guard";
import { eventRow } from "../outbox/outbox";
import { withPackages } from "../shipment-core/records";
import type { ShipmentRecord } from "../shipment-core/schemas";
import { packingLocations, serialsChanged, unship } from "../stock";

/** What one cancellation reads: the shipment at its version, where its units left from, its serials. */
async function reads(tdb: TenantDb, id: string) {
  const { db } = tdb;
  const read = await runBatch(tdb, {
    shipment: db
      .select()
      .from(shipments)
      .where(inTenant(tdb, shipments, eq(shipments.id, id))),
    stock: db
      .select({
        orderLineId: shipmentStock.orderLineId,
        productId: shipmentStock.productId,
        lotId: shipmentStock.lotId,
        quantity: shipmentStock.quantity,
        warehouseId: locations.warehouseId,
      })
      .from(shipmentStock)
      .innerJoin(locations, eq(locations.id, shipmentStock.locationId))
      .where(inTenant(tdb, shipmentStock, eq(shipmentStock.shipmentId, id))),
    contents: db
      .select({ productId: packageLines.productId, serialNumbers: packageLines.serialNumbers })
      .from(packageLines)
      .where(inTenant(tdb, packageLines, eq(packageLines.shipmentId, id))),
  });
  const [row] = read.shipment;
  if (!row) throw notFound("Shipment");
  const shipped = read.contents.flatMap((c) => (c.serialNumbers ?? []).map((serial) => ({ ...c, serial })));
  // Where each shipped serial left from (its row keeps the location it was taken at).
  const serials = shipped.length
    ? await db
        .select({
          productId: serialNumbers.productId,
          serial: serialNumbers.serial,
          warehouseId: serialNumbers.warehouseId,
        })
        .from(serialNumbers)
        .where(
          inTenant(
            tdb,
            serialNumbers,
            inJsonArray(serialNumbers.productId, [...new Set(shipped.map((s) => s.productId))]),
            inJsonArray(serialNumbers.serial, [...new Set(shipped.map((s) => s.serial))]),
          ),
        )
    : [];
  const mine = new Set(shipped.map((s) => `${s.productId}|${s.serial}`));
  return {
    row,
    stock: read.stock,
    serials: serials.flatMap(({ warehouseId, ...s }) =>
      warehouseId && mine.has(`${s.productId}|${s.serial}`) ? [{ ...s, warehouseId }] : [],
    ),
  };
}

/**
 * Cancels a shipment before dispatch: its units go back to the packing location of the warehouse they left,
 * reserved for the order again (ledger reason `shipment_cancelled`), the order lines' shippedQuantity
 * shrink, and the order is `partially_shipped` while another shipment still holds units, else `packed`.
 * One batch: the shipment's own update comes first and every later statement needs it to have happened
 * (and the order to be at the version read), so a racing dispatch, label or second cancel leaves no trace.
 */
export async function cancelShipment(tdb: TenantDb, actor: Actor, id: string): Promise<ShipmentRecord> {
  const { row, stock, serials } = await reads(tdb, id);
  if (row.status !== "packed" && row.status !== "labelled") {
    throw conflict(
      `Shipment ${id} is ${row.status}; only packed or labelled shipments are cancelled (a dispatched one comes back as a return)`,
    );
  }
  const order = await readOrder(tdb, row.orderId);
  if (order.row.status !== "partially_shipped" && order.row.status !== "shipped") {
    throw conflict(
      `Order ${order.row.number} is ${order.row.status}; its shipments can no longer be cancelled`,
    );
  }
  const warehouses = [...new Set(stock.map((s) => s.warehouseId))];
  const packing = await packingLocations(tdb, warehouses);
  const now = new Date().toISOString();

  const returned = new Map<string, number>();
  for (const s of stock) returned.set(s.orderLineId, (returned.get(s.orderLineId) ?? 0) + s.quantity);
  const lines = order.lines.map((l) => ({
    ...l,
    shippedQuantity: l.shippedQuantity - (returned.get(l.id) ?? 0),
  }));
  const to = lines.some((l) => l.shippedQuantity > 0) ? "partially_shipped" : "packed";
  const from = order.row.status;
  const history =
    to === from ? order.history : [...order.history, historyEntry(order.row, from, to, actor, now)];
  const orderAfter = orderRecord(
    { ...order.row, status: to, version: order.row.version + 1, updatedAt: now },
    lines,
    history,
  );
  const [record] = await withPackages(tdb, [
    { ...row, status: "cancelled", cancelledAt: now, updatedAt: now, version: row.version + 1 },
  ]);
  if (!record) throw notFound("Shipment");

  const atOrderVersion = atVersion(tdb, row.orderId, order.row.version);
  // True only after this batch's first statement: the shipment cancelled at the version after the one read.
  const cancelledHere = sql`exists (select 1 from shipments where tenant_id = ${tdb.tenantId} and id = ${id}
    and status = 'cancelled' and version = ${row.version + 1}) and ${atOrderVersion}`;
  const why = {
    reason: "shipment_cancelled" as const,
    referenceType: "shipment",
    referenceId: id,
    notes: null,
    ...actor,
    now,
  };
  const written = await runBatch(tdb, {
    shipment: tdb.db
      .update(shipments)
      .set({ status: "cancelled", cancelledAt: now, updatedAt: now, version: row.version + 1 })
      .where(
        and(
          inTenant(tdb, shipments, eq(shipments.id, id), eq(shipments.version, row.version)),
          atOrderVersion,
        ) as SQL,
      ),
    ...unship(
      tdb,
      stock.map((s) => ({
        productId: s.productId,
        locationId: packing.get(s.warehouseId) as string,
        lotId: s.lotId || undefined,
        warehouseId: s.warehouseId,
        quantity: s.quantity,
        orderId: row.orderId,
        lineId: s.orderLineId,
      })),
      serials.map((s) => ({ ...s, locationId: packing.get(s.warehouseId) as string })),
      why,
      cancelledHere,
    ),
    lines: [...returned].map(
      ([lineId, quantity]) => sql`update order_lines set shipped_quantity = shipped_quantity - ${quantity}
        where tenant_id = ${tdb.tenantId} and id = ${lineId} and ${cancelledHere}`,
    ),
    history: to === from ? undefined : historyInsert(tdb, row.orderId, from, to, actor, now, cancelledHere),
    events: [
      eventRow(tdb, "shipment.cancelled", record, now, { onlyIf: cancelledHere }),
      ...(to === from
        ? []
        : [eventRow(tdb, "order.status_changed", orderAfter, now, { onlyIf: cancelledHere })]),
    ],
    // Last: the order's next version, which every statement above was guarded by.
    order: tdb.db
      .update(orders)
      .set({ status: to, updatedAt: now, version: sql`${orders.version} + 1` })
      .where(and(inTenant(tdb, orders, eq(orders.id, row.orderId)), cancelledHere) as SQL),
  }).catch((error) => {
    throw answerFor(error, { serial_numbers_on_hand_check: serialsChanged });
  });
  if (changesOf(written.shipment) === 0) {
    throw conflict(`Shipment ${id} or its order changed meanwhile; reload it and retry`);
  }
  return record;
}
