import { count, desc, eq, sql } from "drizzle-orm";
import { uuidv7 } from "uuidv7";
import { runBatch } from "../db/batch";
import type { TenantDb } from "../db/client";
import { readPage } from "../db/pages";
import { webhookAttempts, webhookDeliveries, webhookSubscriptions } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import { AppError, notFound } from "../http/errors";
import { offsetOf, type PageQuery } from "../http/pagination";
import { type CreateWebhookBody, MAX_SUBSCRIPTIONS_PER_TENANT, type UpdateWebhookBody } from "./schemas";
import { encryptSecret, generateSigningSecret } from "./secrets";

export type SubscriptionRow = typeof webhookSubscriptions.$inferSelect;

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
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

const ofSubscription = (tdb: TenantDb, id: string) =>
  inTenant(tdb, webhookSubscriptions, eq(webhookSubscriptions.id, id));

export async function getSubscription(tdb: TenantDb, id: string): Promise<SubscriptionRow> {
  const [row] = await tdb.db.select().from(webhookSubscriptions).where(ofSubscription(tdb, id)).limit(1);
  if (!row) throw notFound("Webhook");
  return row;
}

export async function createSubscription(tdb: TenantDb, secretKey: string, input: CreateWebhookBody) {
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
    createdAt: now,
    updatedAt: now,
  };
  // The per-tenant limit is checked by the insert itself, so concurrent creations cannot exceed it.
  const result = await tdb.db.run(sql`insert into webhook_subscriptions
      (id, tenant_id, url, description, events, active, secret_ciphertext, created_at, updated_at)
    select ${row.id}, ${row.tenantId}, ${row.url}, ${row.description}, ${JSON.stringify(row.events)}, ${row.active ? 1 : 0},
      ${row.secretCiphertext}, ${now}, ${now}
    where (${tdb.db.select({ n: count() }).from(webhookSubscriptions).where(inTenant(tdb, webhookSubscriptions))}) < ${MAX_SUBSCRIPTIONS_PER_TENANT}`);
  if (result.meta.changes === 0) {
    const message = `A tenant can have at most ${MAX_SUBSCRIPTIONS_PER_TENANT} webhook subscriptions`;
    throw new AppError("VALIDATION_FAILED", message, { errors: [message] });
  }
  return { ...webhookRecord(row), secret };
}

export function listSubscriptions(tdb: TenantDb, query: PageQuery) {
  const ofTenant = inTenant(tdb, webhookSubscriptions);
  return readPage(
    tdb,
    query,
    {
      rows: tdb.db
        .select()
        .from(webhookSubscriptions)
        .where(ofTenant)
        .orderBy(desc(webhookSubscriptions.createdAt), desc(webhookSubscriptions.id))
        .limit(query.pageSize)
        .offset(offsetOf(query)),
      count: tdb.db.select({ value: count() }).from(webhookSubscriptions).where(ofTenant),
    },
    webhookRecord,
  );
}

/** Replaces url, events, description and active; re-activating clears the server's reason for disabling. */
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

export async function deleteSubscription(tdb: TenantDb, id: string) {
  const row = await getSubscription(tdb, id);
  await runBatch(tdb, {
    attempts: tdb.db
      .delete(webhookAttempts)
      .where(inTenant(tdb, webhookAttempts, eq(webhookAttempts.subscriptionId, id))),
    deliveries: tdb.db
      .delete(webhookDeliveries)
      .where(inTenant(tdb, webhookDeliveries, eq(webhookDeliveries.subscriptionId, id))),
    subscription: tdb.db.delete(webhookSubscriptions).where(ofSubscription(tdb, id)),
  });
  return webhookRecord(row);
}

const ROTATION_OVERLAP_MS = 24 * 60 * 60_000;

/** A new secret; the old one keeps signing for 24 hours so receivers can switch without losing events. */
export async function rotateSecret(tdb: TenantDb, secretKey: string, id: string) {
  const current = await getSubscription(tdb, id);
  const secret = generateSigningSecret();
  const now = new Date();
  const [row] = await tdb.db
    .update(webhookSubscriptions)
    .set({
      secretCiphertext: await encryptSecret(secretKey, secret),
      previousSecretCiphertext: current.secretCiphertext,
      previousSecretExpiresAt: new Date(now.getTime() + ROTATION_OVERLAP_MS).toISOString(),
      updatedAt: now.toISOString(),
    })
    .where(ofSubscription(tdb, id))
    .returning();
  if (!row) throw notFound("Webhook");
  return { ...webhookRecord(row), secret };
}
