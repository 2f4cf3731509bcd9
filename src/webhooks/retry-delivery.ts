import { eq } from "drizzle-orm";
import type { TenantDb } from "../db/client";
import { webhookDeliveries } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import type { Bindings } from "../env";
import { notFound } from "../http/errors";
import { queueDeliveries } from "./queue-deliveries";
import { getSubscription } from "./read-webhook";

/** `POST .../deliveries/{deliveryId}/retry`: a fresh series of attempts for one delivery, whatever its state. */
export async function retryDelivery(
  env: Bindings,
  tdb: TenantDb,
  subscriptionId: string,
  deliveryId: string,
) {
  await getSubscription(tdb, subscriptionId);
  const [row] = await tdb.db
    .update(webhookDeliveries)
    .set({
      status: "pending",
      attempts: 0,
      nextAttemptAt: new Date().toISOString(),
      updatedAt: new Date().toISOString(),
    })
    .where(
      inTenant(
        tdb,
        webhookDeliveries,
        eq(webhookDeliveries.subscriptionId, subscriptionId),
        eq(webhookDeliveries.id, deliveryId),
      ),
    )
    .returning();
  if (!row) throw notFound("Delivery");
  await queueDeliveries(env, tdb.tenantId, [row.id]);
  return { deliveryId: row.id, eventId: row.eventId };
}
