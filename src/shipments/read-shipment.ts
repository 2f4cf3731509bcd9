import type { TenantDb } from "../db/client";
import { notFound } from "../http/errors";
import { ofShipment, readShipments } from "../shipment-core/records";

export async function getShipment(tdb: TenantDb, id: string) {
  const [shipment] = await readShipments(tdb, ofShipment(id));
  if (!shipment) throw notFound("Shipment");
  return shipment;
}
