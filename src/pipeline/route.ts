import { createRoute, type RouteConfig, z } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import { createMiddleware } from "hono/factory";
import { authenticate, authenticateGatedWrites } from "../auth/authenticate";
import { requirePlatformOperator } from "../auth/platform-operator";
import { requireScope } from "../auth/require-scope";
import type { Scope } from "../auth/scopes";
import { resolveTenant } from "../auth/tenant";
import type { AppEnv } from "../env";
import { ErrorEnvelope } from "../http/envelope";
import { idempotency } from "../idempotency/middleware";
import { documentedRateLimitHeaders } from "../rate-limit/headers";
import { rateLimit } from "../rate-limit/middleware";
import { handOffCommittedEvents } from "./hand-off-committed-events";
import { withStandardHeaders } from "./response-headers";

/**
 * Who may call a route:
 * - `public`: anyone (health, docs, login);
 * - `credential`: any valid JWT or API key, no tenant needed (`GET /auth/me`); counted by a tenant's rate limit
 *   when the call names one (an API key's own tenant, or X-Tenant-Id with a JWT); a bare JWT call is the user's,
 *   not a tenant's, and is not counted;
 * - `platform`: the platform operator token;
 * - `tenant`: a credential, a resolved tenant and its rate limit, no particular scope (`GET /reports`);
 * - a scope, or several that are all needed: `tenant` plus those scopes; the events the request commits are
 *   handed to the queue after a successful response.
 */
export type Access =
  | "public"
  | "credential"
  | "platform"
  | "tenant"
  | {
      scope: Scope | readonly [Scope, ...Scope[]];
      /**
       * `true`: a credential acting for one merchant may call it (webhooks); `false`: it may not, whatever its
       * scopes (billing writes). Unsaid: an `admin` route (people, keys, merchants, settings) administers the whole
       * tenant and refuses such a credential (403), any other route takes it.
       */
      merchants?: boolean;
    };

const scopesOf = (access: Access): Scope[] => (typeof access === "object" ? [access.scope].flat() : []);
const actsOnTenant = (access: Access) => access === "tenant" || typeof access === "object";

// `resolveTenant` then `rateLimit`, run only when the call names a tenant.
const countAgainstNamedTenant = createMiddleware<AppEnv>(async (c, next) => {
  if (c.var.principal.type !== "api_key" && !c.req.header("x-tenant-id")) return next();
  await resolveTenant(c, async () => {
    await rateLimit(c, next);
  });
});

/**
 * The middleware of an access rule, in order; also for the few routes declared outside `defineRoute`.
 * `gatedWrites`: the handler writes only after `confirmedKeyView` (src/auth/key-views.ts).
 */
export function guardsFor(
  access: Access,
  idempotent = false,
  gatedWrites = false,
): MiddlewareHandler<AppEnv>[] {
  if (access === "public") return [];
  if (access === "credential") return [authenticate, countAgainstNamedTenant];
  if (access === "platform") return [requirePlatformOperator];
  const needed = scopesOf(access);
  const tenantRoute = [
    gatedWrites ? authenticateGatedWrites : authenticate,
    resolveTenant,
    handOffCommittedEvents,
    rateLimit,
    ...(needed.length > 0
      ? [requireScope(needed, typeof access === "object" ? access.merchants : undefined)]
      : []),
  ];
  return idempotent ? [...tenantRoute, idempotency] : tenantRoute;
}

function securityFor(access: Access): Record<string, string[]>[] {
  if (access === "public") return [];
  if (access === "platform") return [{ PlatformToken: [] }];
  const scopes = scopesOf(access);
  return [{ BearerAuth: scopes }, { ApiKeyAuth: scopes }];
}

/** "Requires scope `admin`." / "Requires scopes `read:inventory` and `read:products`." */
function scopeSentence(access: Access): string | undefined {
  if (access === "tenant") return "Any scope of the tenant; counted by its rate limit.";
  const needed = scopesOf(access);
  if (needed.length === 0) return undefined;
  const names = needed.map((scope) => `\`${scope}\``).join(" and ");
  return `Requires scope${needed.length > 1 ? "s" : ""} ${names}.`;
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
  const counted = {
    ...authenticated,
    429: { ...errorResponse("Rate limit exceeded; see Retry-After"), headers: documentedRateLimitHeaders },
  };
  if (access === "credential") {
    return {
      ...counted,
      403: errorResponse(
        "The API key's IP allow list does not include the caller, or X-Tenant-Id names a tenant that is not accessible",
      ),
    };
  }
  return {
    ...counted,
    403: errorResponse("Insufficient scope, IP not allowed, or tenant not accessible"),
  };
}

const idempotencyKeyParameter = {
  name: "Idempotency-Key",
  in: "header" as const,
  required: false,
  description:
    "Makes a retry safe: within 24 hours the same key with the same body returns the original response " +
    "(with `Idempotent-Replayed: true`) and changes nothing; with another body it is 422; while the first " +
    "request runs it is 409. Keys are per tenant and belong to the API key or user that first sent them: " +
    "anyone else sending the same key gets 422, never the stored response. Stored responses (which may hold a " +
    "new API key or webhook secret) are encrypted at rest.",
  schema: { type: "string" as const, minLength: 1, maxLength: 255 },
};

const idempotencyResponses = {
  409: errorResponse(
    "Conflict; also: a request with this Idempotency-Key is still in progress (then with `Retry-After`)",
  ),
  422: errorResponse(
    "The Idempotency-Key was already used with a different request, or by another credential",
  ),
};

// Answered before validation (the body limit) or by it (the JSON validator), for every route that reads a body.
const bodyResponses = {
  413: errorResponse("The request body is larger than 1 MiB"),
  415: errorResponse("Content-Type must be application/json"),
};

const consistencyTokenParameter = {
  name: "Consistency-Token",
  in: "header" as const,
  required: false,
  description:
    "A `Consistency-Token` from an earlier response: this request is served by a database copy at least as fresh " +
    "as that response (read-your-writes across requests and regions). Without it the request reads the latest " +
    "data. A malformed or altered token, or one given to another tenant, is 400.",
  // The shape src/db/consistency-token.ts accepts.
  schema: { type: "string" as const, maxLength: 300, pattern: "^[A-Za-z0-9_-]+$" },
};

const tenantHeaderParameter = {
  name: "X-Tenant-Id",
  in: "header" as const,
  required: false,
  description: "The tenant to act on. Required with a JWT; optional with an API key (must match its tenant).",
  schema: { type: "string" as const, format: "uuid" },
};

// On a credential route the header is optional and only says whose rate limit counts the call.
const countingTenantHeaderParameter = {
  ...tenantHeaderParameter,
  description:
    "Optional. With a JWT, the tenant whose rate limit counts this call (you must be a member); an API key's " +
    "call counts against the key's tenant. Without either, the call is the user's and is not counted.",
};

/**
 * The route's query, strict: a parameter it does not declare (a typo such as `pagesize`) is a 400 naming it, not
 * silently ignored. A route without a query gets an empty strict one, so every operation refuses unknown parameters.
 */
function strictQuery(query: unknown) {
  if (query === undefined) return z.strictObject({});
  if (query instanceof z.ZodObject) return query.strict();
  throw new TypeError("a route's query must be a z.object, so unknown parameters can be refused");
}

/**
 * Declares a route once: its access rule becomes middleware, OpenAPI security (with the scope)
 * and the standard error responses, next to the schemas that validate it.
 */
export function defineRoute<const R extends RouteConfig>(
  access: Access,
  config: R,
  /**
   * `streamsBody`: the body is streamed, never held whole (an upload), so it cannot be hashed for Idempotency-Key.
   * `gatedWrites`: the handler awaits `confirmedKeyView` (src/auth/key-views.ts) before its first write, so with a
   * key this isolate has seen its reads run alongside the key's lookup (a sales order: two round trips).
   */
  options: { streamsBody?: true; gatedWrites?: true } = {},
) {
  const scoped = actsOnTenant(access);
  // Every write of the tenant API (POST, PUT, PATCH, DELETE) honours Idempotency-Key (README, "Concepts and
  // invariants"): the spec asks it of POST; a retried PATCH or DELETE would otherwise answer 409 or 404 for what it
  // did, and a retried PUT would write (and announce) the same change twice.
  const idempotent = scoped && config.method !== "get" && !options.streamsBody;
  const parameters = [
    tenantHeaderParameter,
    consistencyTokenParameter,
    ...(idempotent ? [idempotencyKeyParameter] : []),
  ];
  return createRoute({
    ...config,
    request: { ...config.request, query: strictQuery(config.request?.query) },
    middleware: guardsFor(access, idempotent, options.gatedWrites),
    // A route may state its own (an optional credential: `[{}, { BearerAuth: [] }]`).
    security: config.security ?? securityFor(access),
    ...(scoped ? { "x-required-scopes": scopesOf(access), parameters } : {}),
    ...(access === "credential" ? { parameters: [countingTenantHeaderParameter] } : {}),
    description: [config.description, scopeSentence(access)].filter(Boolean).join("\n\n"),
    responses: withStandardHeaders(
      {
        ...errorResponsesFor(access),
        ...(idempotent ? idempotencyResponses : {}),
        ...(config.request?.body && !options.streamsBody ? bodyResponses : {}),
        ...config.responses,
      },
      { counted: scoped || access === "credential", tenant: scoped, idempotent },
    ),
  }) as R & { middleware: MiddlewareHandler<AppEnv>[] };
}
