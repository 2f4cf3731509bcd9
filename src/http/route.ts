import { createRoute, type RouteConfig } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import { authenticate } from "../auth/authenticate";
import { requirePlatformOperator } from "../auth/platform-operator";
import { requireScope } from "../auth/require-scope";
import type { Scope } from "../auth/scopes";
import { resolveTenant } from "../auth/tenant";
import type { AppEnv } from "../env";
import { handOffCommittedEvents } from "../events/hand-off";
import { idempotency } from "../idempotency/middleware";
import { documentedRateLimitHeaders } from "../rate-limit/headers";
import { rateLimit } from "../rate-limit/middleware";
import { ErrorEnvelope } from "./envelope";

/**
 * Who may call a route:
 * - `public`: anyone (health, docs, login);
 * - `credential`: any valid JWT or API key, no tenant needed (`GET /auth/me`);
 * - `platform`: the platform operator token;
 * - a scope: a credential, a resolved tenant, its rate limit, and that scope; the events the request
 *   commits are handed to the queue after a successful response.
 */
export type Access = "public" | "credential" | "platform" | { scope: Scope };

function middlewareFor(access: Access, idempotent: boolean): MiddlewareHandler<AppEnv>[] {
  if (access === "public") return [];
  if (access === "credential") return [authenticate];
  if (access === "platform") return [requirePlatformOperator];
  const tenantRoute = [
    authenticate,
    resolveTenant,
    handOffCommittedEvents,
    rateLimit,
    requireScope(access.scope),
  ];
  return idempotent ? [...tenantRoute, idempotency] : tenantRoute;
}

function securityFor(access: Access): Record<string, string[]>[] {
  if (access === "public") return [];
  if (access === "platform") return [{ PlatformToken: [] }];
  const scopes = access === "credential" ? [] : [access.scope];
  return [{ BearerAuth: scopes }, { ApiKeyAuth: scopes }];
}

/** `{ content: { "application/json": { schema } } }`, the shape of every JSON body and response. */
export const jsonContent = <T>(schema: T) => ({ content: { "application/json": { schema } } });

/** An error response in the envelope, for the statuses a route adds to the standard ones (404, 409...). */
export const errorResponse = (description: string) => ({ description, ...jsonContent(ErrorEnvelope) });

function errorResponsesFor(access: Access) {
  const common = {
    400: errorResponse("Validation failed, malformed JSON or a bad query parameter"),
    500: errorResponse("Unexpected failure; the message carries the request id"),
    503: errorResponse(
      "Service unavailable: the deployment is not configured, or the database is not answering",
    ),
  };
  if (access === "public") return common;
  const authenticated = {
    ...common,
    401: errorResponse("Missing, malformed, expired or revoked credentials"),
  };
  if (access === "platform") return authenticated;
  if (access === "credential") {
    return {
      ...authenticated,
      403: errorResponse("The API key's IP allow list does not include the caller"),
    };
  }
  return {
    ...authenticated,
    403: errorResponse("Insufficient scope, IP not allowed, or tenant not accessible"),
    429: { ...errorResponse("Rate limit exceeded; see Retry-After"), headers: documentedRateLimitHeaders },
  };
}

const idempotencyKeyParameter = {
  name: "Idempotency-Key",
  in: "header" as const,
  required: false,
  description:
    "Makes a retry safe: within 24 hours the same key with the same body returns the original response " +
    "(with `Idempotent-Replayed: true`) and changes nothing; with another body it is 422; while the first " +
    "request runs it is 409. Keys are per tenant.",
  schema: { type: "string" as const, minLength: 1, maxLength: 255 },
};

const idempotencyResponses = {
  409: errorResponse("Conflict; also: a request with this Idempotency-Key is still in progress"),
  422: errorResponse("The Idempotency-Key was already used with a different request"),
};

// Answered before validation (the body limit) or by it (the JSON validator), for every route that reads a body.
const bodyResponses = {
  413: errorResponse("The request body is larger than 1 MiB"),
  415: errorResponse("Content-Type must be application/json"),
};

const tenantHeaderParameter = {
  name: "X-Tenant-Id",
  in: "header" as const,
  required: false,
  description: "The tenant to act on. Required with a JWT; optional with an API key (must match its tenant).",
  schema: { type: "string" as const, format: "uuid" },
};

/**
 * Declares a route once: its access rule becomes middleware, OpenAPI security (with the scope)
 * and the standard error responses, next to the schemas that validate it.
 */
export function defineRoute<const R extends RouteConfig>(access: Access, config: R) {
  const scoped = typeof access === "object";
  // Every POST of the tenant API honours Idempotency-Key (contract section 10).
  const idempotent = scoped && config.method === "post";
  const parameters = idempotent ? [tenantHeaderParameter, idempotencyKeyParameter] : [tenantHeaderParameter];
  return createRoute({
    ...config,
    middleware: middlewareFor(access, idempotent),
    security: securityFor(access),
    ...(scoped ? { "x-required-scope": access.scope, parameters } : {}),
    description: [config.description, scoped ? `Requires scope \`${access.scope}\`.` : undefined]
      .filter(Boolean)
      .join("\n\n"),
    responses: {
      ...errorResponsesFor(access),
      ...(idempotent ? idempotencyResponses : {}),
      ...(config.request?.body ? bodyResponses : {}),
      ...config.responses,
    },
  }) as R & { middleware: MiddlewareHandler<AppEnv>[] };
}
