import { and, eq, inArray, sql } from "drizzle-orm";
import { changesOf, runBatch } from "../db/batch";
import type { TenantDb } from "../db/client";
import { shipments } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import { conflict } from "../http/errors";
import { eventRow } from "../outbox/outbox";
import { dispatchedPayload } from "../shipment-core/records";
import { getShipment } from "./read-shipment";

/**
 * Marks a packed or labelled shipment handed to the carrier: `shipment.dispatched` carries the shipment and
 * every package's tracking number. Guarded by the status read, so of two dispatches one has an effect.
 */
export async function dispatchShipment(tdb: TenantDb, id: string) {
  const shipment = await getShipment(tdb, id);
  if (shipment.status !== "packed" && shipment.status !== "labelled") {
    throw conflict(`Shipment ${id} is ${shipment.status}; only packed or labelled shipments are dispatched`);
  }
  const now = new Date().toISOString();
  const after = { ...shipment, status: "dispatched" as const, dispatchedAt: now, updatedAt: now };
  const payload = dispatchedPayload(after);
  const still = and(
    inTenant(tdb, shipments, eq(shipments.id, id)),
    inArray(shipments.status, ["packed", "labelled"]),
  );
  const written = await runBatch(tdb, {
    event: eventRow(tdb, "shipment.dispatched", payload, now, {
      onlyIf: sql`exists (select 1 from shipments where ${still})`,
    }),
    shipment: tdb.db
      .update(shipments)
      .set({
        status: "dispatched",
        dispatchedAt: now,
        updatedAt: now,
        version: sql`${shipments.version} + 1`,
      })
      .where(still),
  });
  if (changesOf(written.shipment) === 0) throw conflict(`Shipment ${id} changed meanwhile; reload it`);
  return after;
}
