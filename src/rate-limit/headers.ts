import type { Decision } from "./sliding-window";

/**
 * The limit headers of one decision taken at `at` (epoch ms): the de-facto `X-RateLimit-*` trio
 * (Reset in Unix epoch seconds, rounded up so it is never early) and the IETF draft's structured
 * `RateLimit-Policy` / `RateLimit` fields; `Retry-After` when the request was refused.
 */
export function rateLimitHeaders(
  decision: Decision & { at: number },
  policy: string,
): Record<string, string> {
  const secondsToReset = Math.max(0, Math.ceil((decision.resetAt - decision.at) / 1000));
  return {
    "X-RateLimit-Limit": String(decision.limit),
    "X-RateLimit-Remaining": String(decision.remaining),
    "X-RateLimit-Reset": String(Math.ceil(decision.resetAt / 1000)),
    "RateLimit-Policy": `"${policy}";q=${decision.limit};w=${decision.windowMs / 1000}`,
    RateLimit: `"${policy}";r=${decision.remaining};t=${secondsToReset}`,
    ...(decision.allowed ? {} : { "Retry-After": String(decision.retryAfter) }),
  };
}
