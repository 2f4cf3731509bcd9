import { eq } from "drizzle-orm";
import type { TenantDb } from "../db/client";
import { webhookDeliveries } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import type { Bindings } from "../env";
import { notFound } from "../http/errors";
import { deliverNow } from "../webhook-delivery/deliver-now";
import { getSubscription } from "./read-webhook";

/**
 * `POST .../deliveries/{deliveryId}/retry`: a fresh series of attempts for one delivery, whatever its state, the
 * first from the request's `waitUntil`.
 */
export async function retryDelivery(
  env: Bindings,
  ctx: Pick<ExecutionContext, "waitUntil">,
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
  ctx.waitUntil(deliverNow(env, tdb.tenantId, [row.id]));
  return { deliveryId: row.id, eventId: row.eventId };
}
