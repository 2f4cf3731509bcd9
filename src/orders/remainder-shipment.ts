import { and, eq, ne, type SQL } from "drizzle-orm";
import { uuidv7 } from "uuidv7";
import type { Actor } from "../auth/principal";
import type { TenantDb } from "../db/client";
import { shipments } from "../db/schema/tenant";
import type { LoadedOrder } from "../order-core/read-order";
import { planRemainder } from "../shipment-core/plan";
import { readShipments, shipmentRecord } from "../shipment-core/records";
import { takeSsccs } from "../shipment-core/ssccs";
import { levelKey, type PickedSerials } from "./picked-serials";

/**
 * The legacy status update's shipment: everything the order still holds, as ONE dispatched shipment of one
 * package carrying the given tracking number (no weight: the update never knew one). None when nothing is
 * left to ship (every open unit was backordered).
 */
export async function remainderShipment(
  tdb: TenantDb,
  order: LoadedOrder,
  picked: PickedSerials,
  trackingNumber: string | undefined,
  actor: Actor,
  now: string,
) {
  if (order.reservations.length === 0) return undefined;
  const packageId = uuidv7();
  // Each reservation row ships the serials picked at its level that belong to its line.
  const used = new Set<string>();
  const serialsAt = (lineId: string, locationId: string, quantity: number) => {
    const reservation = order.reservations.find((r) => r.lineId === lineId && r.locationId === locationId);
    const mine = new Set(picked.byLine.get(lineId) ?? []);
    const here = (picked.atLevel.get(levelKey(reservation ?? { productId: "", locationId })) ?? []).filter(
      (s) => mine.has(s) && !used.has(s),
    );
    const taken = here.slice(0, quantity);
    for (const s of taken) used.add(s);
    return taken;
  };
  const plan = planRemainder(order, packageId, picked.byLine, serialsAt);
  const [sscc] = await takeSsccs(tdb, 1);
  const row = {
    id: uuidv7(),
    tenantId: tdb.tenantId,
    orderId: order.row.id,
    warehouseId: order.row.warehouseId,
    status: "dispatched" as const,
    carrier: null,
    service: null,
    dispatchedAt: now,
    cancelledAt: null,
    version: 1,
    createdBy: actor.actorId,
    createdAt: now,
    updatedAt: now,
  };
  const packages = [
    {
      id: packageId,
      tenantId: tdb.tenantId,
      shipmentId: row.id,
      packageNo: 1,
      sscc: sscc as string,
      packageType: null,
      weightMilli: null,
      weightUnit: null,
      dimensions: null,
      trackingNumber: trackingNumber ?? null,
      labelFormat: null,
      createdAt: now,
    },
  ];
  const lotNumbers = new Map(
    order.lines.flatMap((l) => (l.lots ?? []).map((lot) => [lot.lotId, lot.lotNumber] as const)),
  );
  const record = shipmentRecord(
    row,
    packages,
    plan.packageLines.map((l) => ({ ...l, lotNumber: lotNumbers.get(l.lotId) ?? null })),
  );
  const earlier = await readShipments(
    tdb,
    and(eq(shipments.orderId, order.row.id), ne(shipments.status, "cancelled")) as SQL,
  );
  return { row, packages, plan, record, earlier };
}
