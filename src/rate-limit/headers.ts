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

const integerHeader = (description: string) => ({ description, schema: { type: "integer" as const } });
const stringHeader = (description: string) => ({ description, schema: { type: "string" as const } });

/** The 429 response's headers as the OpenAPI document shows them (counted 2xx/4xx responses carry the same, minus Retry-After). */
export const documentedRateLimitHeaders = {
  "Retry-After": integerHeader("Whole seconds until a request will be admitted again"),
  "X-RateLimit-Limit": integerHeader("Requests the tenant's plan allows per rolling 60 seconds"),
  "X-RateLimit-Remaining": integerHeader("Requests still allowed now"),
  "X-RateLimit-Reset": integerHeader("Unix epoch seconds at which the next slot frees"),
  "RateLimit-Policy": stringHeader('IETF policy field, e.g. `"starter";q=60;w=60`'),
  RateLimit: stringHeader('IETF limit field, e.g. `"starter";r=0;t=42`'),
};
