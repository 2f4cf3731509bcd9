import { createRoute, type RouteConfig } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import { authenticate } from "../auth/authenticate";
import { requirePlatformOperator } from "../auth/platform-operator";
import { requireScope } from "../auth/require-scope";
import type { Scope } from "../auth/scopes";
import { resolveTenant } from "../auth/tenant";
import type { AppEnv } from "../env";
import { documentedRateLimitHeaders } from "../rate-limit/headers";
import { rateLimit } from "../rate-limit/middleware";
import { ErrorEnvelope } from "./envelope";

/**
 * Who may call a route:
 * - `public`: anyone (health, docs, login);
 * - `credential`: any valid JWT or API key, no tenant needed (`GET /auth/me`);
 * - `platform`: the platform operator token;
 * - a scope: a credential, a resolved tenant, its rate limit, and that scope.
 */
export type Access = "public" | "credential" | "platform" | { scope: Scope };

function middlewareFor(access: Access): MiddlewareHandler<AppEnv>[] {
  if (access === "public") return [];
  if (access === "credential") return [authenticate];
  if (access === "platform") return [requirePlatformOperator];
  return [authenticate, resolveTenant, rateLimit, requireScope(access.scope)];
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
  };
  if (access === "public") return common;
  const authenticated = {
    ...common,
    401: errorResponse("Missing, malformed, expired or revoked credentials"),
  };
  if (access === "platform" || access === "credential") return authenticated;
  return {
    ...authenticated,
    403: errorResponse("Insufficient scope, IP not allowed, or tenant not accessible"),
    429: { ...errorResponse("Rate limit exceeded; see Retry-After"), headers: documentedRateLimitHeaders },
  };
}

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
  return createRoute({
    ...config,
    middleware: middlewareFor(access),
    security: securityFor(access),
    ...(scoped ? { "x-required-scope": access.scope, parameters: [tenantHeaderParameter] } : {}),
    description: [config.description, scoped ? `Requires scope \`${access.scope}\`.` : undefined]
      .filter(Boolean)
      .join("\n\n"),
    responses: { ...errorResponsesFor(access), ...config.responses },
  }) as R & { middleware: MiddlewareHandler<AppEnv>[] };
}
