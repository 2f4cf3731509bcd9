import { eq } from "drizzle-orm";
import type { TenantDb } from "../db/client";
import { shipments } from "../db/schema/tenant";
import { readOrder } from "../order-core/read-order";
import { readShipments } from "../shipment-core/records";

/** Every shipment of an order, oldest first (cancelled ones included); 404 for an unknown order. */
export async function listOrderShipments(tdb: TenantDb, orderId: string) {
  await readOrder(tdb, orderId);
  return readShipments(tdb, eq(shipments.orderId, orderId));
}
