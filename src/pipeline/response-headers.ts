import { errorCodes } from "../http/errors";
import { documentedRateLimitHeaders } from "../rate-limit/headers";

// The headers the API sends on its responses, as the document declares them: every response carries
// X-Request-Id, every error X-Error-Code, every counted response the rate-limit headers, and so on. The
// suite's response check (test/support/openapi.ts) fails on any of them sent where it is not declared.

const stringHeader = (description: string, required = false) => ({
  description,
  required,
  schema: { type: "string" as const, maxLength: 256 },
});

const requestIdHeader = {
  "X-Request-Id": stringHeader(
    "The request's id: the caller's own `X-Request-Id` when it is 1 to 128 characters of `A-Za-z0-9._:-`, " +
      "else a new UUID. Quote it when reporting a problem; logs carry it.",
    true,
  ),
};

const errorCodeHeader = {
  "X-Error-Code": {
    description: "The machine-readable error code, e.g. `VALIDATION_FAILED`, `NOT_FOUND`, `RATE_LIMITED`.",
    required: true,
    schema: {
      type: "string" as const,
      enum: errorCodes,
    },
  },
};

const { "Retry-After": retryAfterHeader, ...countedHeaders } = documentedRateLimitHeaders;
// Optional: a tenant on an uncounted plan (Enterprise) gets none, and a refusal before counting neither.
const rateLimitHeaders = Object.fromEntries(
  Object.entries(countedHeaders).map(([name, header]) => [name, { ...header, required: false }]),
);

const retryAfter = { "Retry-After": { ...retryAfterHeader, required: false } };

const locationHeader = {
  Location: stringHeader(
    "The URL of what was created or started (absent for stock movements, which have no URL of their own).",
  ),
};

const replayedHeader = {
  "Idempotent-Replayed": {
    description:
      "`true` when this is the stored response to an earlier request with the same Idempotency-Key: nothing " +
      "changed this time.",
    required: false,
    schema: { type: "string" as const, enum: ["true"] },
  },
};

const consistencyTokenHeader = {
  "Consistency-Token": {
    description:
      "Opaque and sealed for this tenant: the point in the tenant's data this response was read or written at. " +
      "Send it back as `Consistency-Token` to read at least this fresh from any replica.",
    schema: { type: "string" as const, maxLength: 512 },
  },
};

/** What a route's responses carry besides their own headers. */
export interface HeaderRules {
  /** The tenant's rate limit counts the request (the rate-limit headers; Retry-After on 429). */
  counted: boolean;
  /** A tenant operation: Consistency-Token. */
  tenant: boolean;
  /** Honours Idempotency-Key: any answer may be a replay. */
  idempotent: boolean;
}

function headersFor(status: number, rules: HeaderRules): Record<string, unknown> {
  return {
    ...requestIdHeader,
    ...(status >= 400 ? errorCodeHeader : {}),
    ...(rules.counted ? rateLimitHeaders : {}),
    // 409 with Retry-After: the first request with this Idempotency-Key is still running.
    ...(status === 429 || status === 503 || (status === 409 && rules.idempotent) ? retryAfter : {}),
    ...(status === 201 || status === 202 ? locationHeader : {}),
    ...(rules.idempotent ? replayedHeader : {}),
    ...(rules.tenant ? consistencyTokenHeader : {}),
  };
}

/** Every response with the headers the API sends on it, besides those the route documents itself. */
export function withStandardHeaders<T extends Record<string, unknown>>(responses: T, rules: HeaderRules): T {
  return Object.fromEntries(
    Object.entries(responses).map(([status, response]) => {
      const documented = response as { headers?: Record<string, unknown> };
      const standard = headersFor(Number(status), rules);
      return [status, { ...documented, headers: { ...standard, ...documented.headers } }];
    }),
  ) as T;
}
