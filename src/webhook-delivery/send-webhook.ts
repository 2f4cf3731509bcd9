import { decryptSecret } from "../outbound/secrets";
import { failureOf, signedPost } from "../outbound/signed-post";

export const DELIVERY_TIMEOUT_MS = 10_000;

/** What one POST to a receiver gave: its status (null: none came back), how long it took, and why it failed. */
export interface SendResult {
  statusCode: number | null;
  durationMs: number;
  error: string | null;
}

/** The signing secrets of a subscription: its current one, and during a rotation's overlap the previous one. */
export async function signingSecrets(
  secretKey: string,
  subscription: {
    secretCiphertext: string;
    previousSecretCiphertext: string | null;
    previousSecretExpiresAt: string | null;
  },
  now: Date,
): Promise<string[]> {
  const secrets = [await decryptSecret(secretKey, subscription.secretCiphertext)];
  if (
    subscription.previousSecretCiphertext &&
    subscription.previousSecretExpiresAt &&
    Date.parse(subscription.previousSecretExpiresAt) > now.getTime()
  ) {
    secrets.push(await decryptSecret(secretKey, subscription.previousSecretCiphertext));
  }
  return secrets;
}

/** POSTs one event to a receiver, signed the Standard Webhooks way; redirects are failures, 10 s at most. */
export async function sendWebhook(
  url: string,
  secrets: readonly string[],
  event: { id: string; type: string; createdAt: string; payload: unknown },
  now: Date,
): Promise<SendResult> {
  const body = JSON.stringify({ type: event.type, timestamp: event.createdAt, data: event.payload });
  const message = { id: event.id, body, userAgent: "WarehouseAPI-Webhooks/1" };
  const started = Date.now();
  try {
    const response = await signedPost(url, secrets, message, now, DELIVERY_TIMEOUT_MS);
    await response.body?.cancel();
    const ok = response.status >= 200 && response.status < 300;
    return {
      statusCode: response.status,
      durationMs: Date.now() - started,
      error: ok ? null : `receiver answered ${response.status}`,
    };
  } catch (error) {
    return {
      statusCode: null,
      durationMs: Date.now() - started,
      error: failureOf(error, DELIVERY_TIMEOUT_MS),
    };
  }
}
