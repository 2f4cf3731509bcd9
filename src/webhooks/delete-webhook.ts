import { eq } from "drizzle-orm";
import { type AuditActor, auditRow } from "../db/audit/writer";
import { runBatch } from "../db/batch";
import type { TenantDb } from "../db/client";
import { webhookAttempts, webhookDeliveries, webhookSubscriptions } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import { previousStatementChanged } from "../outbox/outbox";
import { getSubscription } from "./read-webhook";
import { ofSubscription, webhookRecord } from "./records";

/** `DELETE /webhooks/{id}`: the subscription and its delivery history, in one batch. */
export async function deleteSubscription(tdb: TenantDb, id: string, by: AuditActor) {
  const row = await getSubscription(tdb, id);
  await runBatch(tdb, {
    attempts: tdb.db
      .delete(webhookAttempts)
      .where(inTenant(tdb, webhookAttempts, eq(webhookAttempts.subscriptionId, id))),
    deliveries: tdb.db
      .delete(webhookDeliveries)
      .where(inTenant(tdb, webhookDeliveries, eq(webhookDeliveries.subscriptionId, id))),
    subscription: tdb.db.delete(webhookSubscriptions).where(ofSubscription(tdb, id)),
    audit: auditRow(
      tdb,
      by,
      {
        action: "webhook.deleted",
        target: { type: "webhook", id },
        merchantId: row.merchantId,
        before: webhookRecord(row),
      },
      { onlyIf: previousStatementChanged },
    ),
  });
  return webhookRecord(row);
}
