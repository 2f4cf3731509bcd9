import { eq } from "drizzle-orm";
import type { TenantDb } from "../db/client";
import { webhookSubscriptions } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import type { SubscriptionRow } from "../webhook-delivery/records";

/** What the API shows: never a secret, plain or encrypted. */
export function webhookRecord(row: SubscriptionRow) {
  return {
    id: row.id,
    url: row.url,
    events: row.events,
    description: row.description,
    active: row.active,
    disabledReason: row.disabledReason,
    failingSince: row.failingSince,
    createdBy: row.createdByType && row.createdById ? { type: row.createdByType, id: row.createdById } : null,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

export const ofSubscription = (tdb: TenantDb, id: string) =>
  inTenant(tdb, webhookSubscriptions, eq(webhookSubscriptions.id, id));
