import { type AuditActor, auditRow } from "../db/audit/writer";
import { runBatch } from "../db/batch";
import type { TenantDb } from "../db/client";
import { webhookSubscriptions } from "../db/schema/tenant";
import { notFound } from "../http/errors";
import { encryptSecret, generateSigningSecret } from "../outbound/secrets";
import { previousStatementChanged } from "../outbox/outbox";
import { getSubscription } from "./read-webhook";
import { ofSubscription, webhookRecord } from "./records";

const ROTATION_OVERLAP_MS = 24 * 60 * 60_000;

/** `POST /webhooks/{id}/rotate-secret`: a new secret; the old one keeps signing for 24 hours so receivers can switch without losing events. */
export async function rotateSecret(tdb: TenantDb, secretKey: string, id: string, by: AuditActor) {
  const current = await getSubscription(tdb, id);
  const secret = generateSigningSecret();
  const now = new Date();
  const previousSecretExpiresAt = new Date(now.getTime() + ROTATION_OVERLAP_MS).toISOString();
  const { rotated } = await runBatch(tdb, {
    rotated: tdb.db
      .update(webhookSubscriptions)
      .set({
        secretCiphertext: await encryptSecret(secretKey, secret),
        previousSecretCiphertext: current.secretCiphertext,
        previousSecretExpiresAt,
        updatedAt: now.toISOString(),
      })
      .where(ofSubscription(tdb, id))
      .returning(),
    // The secrets themselves are never recorded: the entry says when the old one stops working.
    audit: auditRow(
      tdb,
      by,
      {
        action: "webhook.secret_rotated",
        target: { type: "webhook", id },
        merchantId: current.merchantId,
        after: { previousSecretExpiresAt },
      },
      { onlyIf: previousStatementChanged },
    ),
  });
  const [row] = rotated;
  if (!row) throw notFound("Webhook");
  return { ...webhookRecord(row), secret };
}
