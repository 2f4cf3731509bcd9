import type { TenantDb } from "../db/client";
import { webhookSubscriptions } from "../db/schema/tenant";
import { notFound } from "../http/errors";
import { ofSubscription, webhookRecord } from "./records";
import type { UpdateWebhookBody } from "./schemas";

/** `PUT /webhooks/{id}`: replaces url, events, description and active; re-activating clears the server's reason for disabling. */
export async function updateSubscription(tdb: TenantDb, id: string, input: UpdateWebhookBody) {
  const [row] = await tdb.db
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
    .returning();
  if (!row) throw notFound("Webhook");
  return webhookRecord(row);
}
