import { currentRightsIn } from "../auth/current-rights";
import { type AuditActor, auditRow } from "../db/audit/writer";
import { runBatch } from "../db/batch";
import type { TenantDb } from "../db/client";
import { webhookSubscriptions } from "../db/schema/tenant";
import type { Bindings } from "../env";
import { conflict, notFound } from "../http/errors";
import { previousStatementChanged } from "../outbox/outbox";
import { lostFor } from "../webhook-delivery/creator-rights";
import { getSubscription } from "./read-webhook";
import { ofSubscription, webhookRecord } from "./records";
import type { UpdateWebhookBody } from "./schemas";

/**
 * `PUT /webhooks/{id}`: replaces url, events, description and active; re-activating clears the server's reason
 * for disabling. A subscription whose creator may do nothing any more cannot be re-activated: it is not
 * transferable (like an API key), so an admin creates a new one as themself.
 */
export async function updateSubscription(
  env: Bindings,
  tdb: TenantDb,
  id: string,
  input: UpdateWebhookBody,
  by: AuditActor,
) {
  const subscription = await getSubscription(tdb, id);
  if (input.active) {
    const { createdByType, createdById } = subscription;
    if (createdByType && createdById) {
      const rights = await currentRightsIn(env, tdb.tenantId, { type: createdByType, id: createdById });
      const lost = lostFor(subscription, rights);
      if (lost) {
        throw conflict(
          `This subscription's creator can no longer act for it (${lost}): create a new subscription instead`,
        );
      }
    }
  }
  const { updated } = await runBatch(tdb, {
    updated: tdb.db
      .update(webhookSubscriptions)
      .set({
        url: input.url,
        events: [...new Set(input.events)],
        description: input.description ?? null,
        active: input.active,
        ...(input.active ? { disabledReason: null, failingSince: null } : {}),
        updatedAt: new Date().toISOString(),
      })
      .where(ofSubscription(tdb, id))
      .returning(),
    audit: auditRow(
      tdb,
      by,
      {
        action: "webhook.updated",
        target: { type: "webhook", id },
        merchantId: subscription.merchantId,
        before: webhookRecord(subscription),
        after: { ...webhookRecord(subscription), ...input },
      },
      { onlyIf: previousStatementChanged },
    ),
  });
  const [row] = updated;
  if (!row) throw notFound("Webhook");
  return webhookRecord(row);
}
