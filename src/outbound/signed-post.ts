import { signatureHeader } from "./signature";

/** What one signed POST sends: the message id (`webhook-id`), its JSON body, and who sends it. */
export interface SignedMessage {
  id: string;
  body: string;
  userAgent: string;
}

/**
 * POSTs a JSON body signed the Standard Webhooks way (`webhook-id`, `webhook-timestamp`, `webhook-signature`)
 * and answers the receiver's response. Redirects are not followed (a redirect is the receiver's answer: following
 * it could lead anywhere the URL guard did not check); after `timeoutMs` the fetch is aborted (it throws).
 * Webhook deliveries and the http carrier's label requests both go out this way.
 */
export async function signedPost(
  url: string,
  secrets: readonly string[],
  message: SignedMessage,
  now: Date,
  timeoutMs: number,
): Promise<Response> {
  const timestamp = Math.floor(now.getTime() / 1000);
  return fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "user-agent": message.userAgent,
      "webhook-id": message.id,
      "webhook-timestamp": String(timestamp),
      "webhook-signature": await signatureHeader(secrets, message.id, timestamp, message.body),
    },
    body: message.body,
    redirect: "manual",
    signal: AbortSignal.timeout(timeoutMs),
  });
}

/** Why a signed POST threw: it ran out of time, or the network failed. */
export const failureOf = (error: unknown, timeoutMs: number) =>
  error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError")
    ? `timed out after ${timeoutMs / 1000} s`
    : `network error: ${String(error)}`;
