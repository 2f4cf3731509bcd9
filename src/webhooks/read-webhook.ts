import type { TenantDb } from "../db/client";
import { webhookSubscriptions } from "../db/schema/tenant";
import { notFound } from "../http/errors";
import type { SubscriptionRow } from "../webhook-delivery/records";
import { ofSubscription } from "./records";

/** `GET /webhooks/{id}`, and the 404 of every operation on one subscription. */
export async function getSubscription(tdb: TenantDb, id: string): Promise<SubscriptionRow> {
  const [row] = await tdb.db.select().from(webhookSubscriptions).where(ofSubscription(tdb, id)).limit(1);
  if (!row) throw notFound("Webhook");
  return row;
}
