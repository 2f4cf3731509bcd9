import { decryptSecret } from "./secrets";
import { signatureHeader } from "./signature";

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
  const timestamp = Math.floor(now.getTime() / 1000);
  const headers = {
    "content-type": "application/json",
    "user-agent": "WarehouseAPI-Webhooks/1",
    "webhook-id": event.id,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": await signatureHeader(secrets, event.id, timestamp, body),
  };
  const started = Date.now();
  try {
    const response = await fetch(url, {
      method: "POST",
      headers,
      body,
      redirect: "manual", // a redirect is a failure: following it could lead anywhere
      signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
    });
    await response.body?.cancel();
    const ok = response.status >= 200 && response.status < 300;
    return {
      statusCode: response.status,
      durationMs: Date.now() - started,
      error: ok ? null : `receiver answered ${response.status}`,
    };
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
    return {
      statusCode: null,
      durationMs: Date.now() - started,
      error: timedOut ? `timed out after ${DELIVERY_TIMEOUT_MS / 1000} s` : `network error: ${String(error)}`,
    };
  }
}
