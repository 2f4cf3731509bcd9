import { count, sql } from "drizzle-orm";
import { uuidv7 } from "uuidv7";
import type { Grantor } from "../auth/current-rights";
import { type AuditActor, auditRow } from "../db/audit/writer";
import { runBatch } from "../db/batch";
import type { TenantDb } from "../db/client";
import { webhookSubscriptions } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import { AppError } from "../http/errors";
import { encryptSecret, generateSigningSecret } from "../outbound/secrets";
import { previousStatementChanged } from "../outbox/outbox";
import type { SubscriptionRow } from "../webhook-delivery/records";
import { webhookRecord } from "./records";
import { type CreateWebhookBody, MAX_SUBSCRIPTIONS_PER_TENANT } from "./schemas";

/**
 * `POST /webhooks`: the subscription and its signing secret, shown in this answer only. It records its creator
 * (the member or key): it delivers only what that creator may read, and only while the creator may.
 */
export async function createSubscription(
  tdb: TenantDb,
  secretKey: string,
  creator: Grantor,
  input: CreateWebhookBody,
  by: AuditActor,
) {
  const secret = generateSigningSecret();
  const now = new Date().toISOString();
  const row: SubscriptionRow = {
    id: uuidv7(),
    tenantId: tdb.tenantId,
    url: input.url,
    description: input.description ?? null,
    events: [...new Set(input.events)],
    active: input.active ?? true,
    secretCiphertext: await encryptSecret(secretKey, secret),
    previousSecretCiphertext: null,
    previousSecretExpiresAt: null,
    disabledReason: null,
    failingSince: null,
    createdByType: creator.type,
    createdById: creator.id,
    merchantId: tdb.merchantId ?? null,
    createdAt: now,
    updatedAt: now,
  };
  // The per-tenant limit is checked by the insert itself, so concurrent creations cannot exceed it.
  const { subscription: result } = await runBatch(tdb, {
    subscription: sql`insert into webhook_subscriptions
      (id, tenant_id, url, description, events, active, secret_ciphertext, created_by_type, created_by_id, merchant_id,
        created_at, updated_at)
    select ${row.id}, ${row.tenantId}, ${row.url}, ${row.description}, ${JSON.stringify(row.events)}, ${row.active ? 1 : 0},
      ${row.secretCiphertext}, ${creator.type}, ${creator.id}, ${row.merchantId}, ${now}, ${now}
    where (${tdb.db.select({ n: count() }).from(webhookSubscriptions).where(inTenant(tdb, webhookSubscriptions))}) < ${MAX_SUBSCRIPTIONS_PER_TENANT}`,
    audit: auditRow(
      tdb,
      by,
      {
        action: "webhook.created",
        target: { type: "webhook", id: row.id },
        merchantId: row.merchantId,
        after: webhookRecord(row),
      },
      { onlyIf: previousStatementChanged },
    ),
  });
  if (result.meta.changes === 0) {
    const message = `A tenant can have at most ${MAX_SUBSCRIPTIONS_PER_TENANT} webhook subscriptions`;
    throw new AppError("VALIDATION_FAILED", message, { errors: [message] });
  }
  return { ...webhookRecord(row), secret };
}
