import type { TenantDb } from "../db/client";
import { webhookSubscriptions } from "../db/schema/tenant";
import { notFound } from "../http/errors";
import { encryptSecret, generateSigningSecret } from "../outbound/secrets";
import { getSubscription } from "./read-webhook";
import { ofSubscription, webhookRecord } from "./records";

const ROTATION_OVERLAP_MS = 24 * 60 * 60_000;

/** `POST /webhooks/{id}/rotate-secret`: a new secret; the old one keeps signing for 24 hours so receivers can switch without losing events. */
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
