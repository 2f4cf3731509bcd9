import type { Context } from "hono";
import { platformDb } from "../db/client";
import { envelopeOf, ok } from "../http/envelope";
import { AppError } from "../http/errors";
import { createRouter } from "../http/router";
import { isKnownClient, rememberClientAfterResponse } from "../identity/known-clients";
import { revokeRefreshToken } from "../identity/refresh-tokens";
import {
  clearSessionCookie,
  deliverSession,
  presentedRefreshToken,
  SESSION_COOKIE_HEADER,
  SESSION_COOKIE_TEXT,
} from "../identity/session-cookie";
import { Session } from "../identity/session-record";
import { auditActor } from "../pipeline/audit-actor";
import { defineRoute, errorResponse, jsonContent as json } from "../pipeline/route";
import { signInClient, throttleLogin, throttleRefresh } from "../rate-limit/login-throttle";
import { describePrincipal } from "./describe-principal";
import { login } from "./login";
import { refreshSession } from "./refresh-session";
import { LoggedOut, LoginBody, Me, RefreshBody } from "./schemas";

const tags = ["Auth"];
const throttled = {
  429: errorResponse("Too many failed attempts from this email or client IP; see Retry-After"),
};
const foreignCookie = { 403: errorResponse("X-Session-Cookie from another origin or site") };

const loginRoute = defineRoute("public", {
  method: "post",
  path: "/auth/login",
  operationId: "login",
  tags,
  summary: "Exchange email and password for an access token and a refresh token",
  description:
    "Wrong email and wrong password give the same 401. Failed attempts are limited (then 429 with Retry-After): " +
    "per email and client with a growing delay (5 in a minute, 10 in 15 minutes, 20 in a day), 30 an hour per email " +
    "from clients it has not signed in from in the last 90 days, and 100 in 15 minutes per client (IPv4 address or " +
    "IPv6 /64)." +
    SESSION_COOKIE_TEXT,
  request: { body: { required: true, ...json(LoginBody) } },
  responses: {
    200: { description: "A new session", ...json(envelopeOf(Session)) },
    401: errorResponse("Invalid email or password"),
    ...foreignCookie,
    ...throttled,
  },
});

const refreshSessionRoute = defineRoute("public", {
  method: "post",
  path: "/auth/refresh",
  operationId: "refreshSession",
  tags,
  summary: "Rotate a refresh token: a new access token and a new refresh token",
  description:
    "Each refresh token works once. Presenting one that was already used revokes every token of that login (reuse detection)." +
    SESSION_COOKIE_TEXT,
  request: { body: { required: false, ...json(RefreshBody) } },
  responses: {
    200: { description: "The rotated session", ...json(envelopeOf(Session)) },
    401: errorResponse("Unknown, expired, revoked or reused refresh token"),
    ...foreignCookie,
    ...throttled,
  },
});

const logoutRoute = defineRoute("public", {
  method: "post",
  path: "/auth/logout",
  operationId: "logout",
  tags,
  summary: "Revoke a refresh token and every token of its login",
  description: `Access tokens already issued stay valid until they expire (at most 1 hour).${SESSION_COOKIE_TEXT}`,
  request: { body: { required: false, ...json(RefreshBody) } },
  responses: {
    200: { description: "Whether a session was revoked", ...json(envelopeOf(LoggedOut)) },
    ...foreignCookie,
  },
});

const getMeRoute = defineRoute("credential", {
  method: "get",
  path: "/auth/me",
  operationId: "getMe",
  tags,
  summary: "Who is calling: the user and their memberships, or the API key's tenant and scopes",
  description:
    "`type` says which: a JWT's user with every tenant they belong to, their role there and the merchant they " +
    "act for, or an API key with its tenant, scopes and merchant (`merchantId`, null for the whole tenant). Needs no tenant; with `X-Tenant-Id` the call counts against that tenant's rate limit.",
  responses: { 200: { description: "The current principal", ...json(envelopeOf(Me)) } },
});

/** The token to rotate: the body's or the session cookie's; with neither, the request is incomplete. */
function requiredToken(c: Context, fromBody: string | undefined): string {
  const token = presentedRefreshToken(c, fromBody);
  if (token !== undefined) return token;
  if (c.req.header(SESSION_COOKIE_HEADER) === "1")
    throw new AppError("UNAUTHORIZED", "No session cookie: sign in again", {
      headers: { "WWW-Authenticate": 'Bearer error="invalid_token"' },
    });
  throw new AppError("VALIDATION_FAILED", "refreshToken is required", {
    errors: ["refreshToken: is required (or send X-Session-Cookie: 1 with the session cookie)"],
  });
}

export const sessionRoutes = createRouter()
  .openapi(loginRoute, async (c) => {
    const body = c.req.valid("json");
    const db = platformDb(c.env, c.var.d1Stats);
    // Read alongside the limiter calls, not after them: the known-client check costs no extra round trip.
    const known = isKnownClient(db, body.email, signInClient(c));
    const session = await throttleLogin(c, body.email, known, () =>
      login(db, c.env.JWT_SECRET, body, auditActor(c)),
    );
    rememberClientAfterResponse(c, session.user.id);
    return ok(c, deliverSession(c, session));
  })
  .openapi(refreshSessionRoute, async (c) => {
    const refreshToken = requiredToken(c, c.req.valid("json").refreshToken);
    const db = platformDb(c.env, c.var.d1Stats);
    try {
      return ok(
        c,
        deliverSession(c, await throttleRefresh(c, () => refreshSession(db, c.env.JWT_SECRET, refreshToken))),
      );
    } catch (error) {
      // A refused token is of no further use: the browser forgets it.
      if (error instanceof AppError && error.status === 401) clearSessionCookie(c);
      throw error;
    }
  })
  .openapi(logoutRoute, async (c) => {
    const refreshToken = presentedRefreshToken(c, c.req.valid("json").refreshToken);
    clearSessionCookie(c);
    const db = platformDb(c.env, c.var.d1Stats);
    return ok(c, { revoked: refreshToken !== undefined && (await revokeRefreshToken(db, refreshToken)) });
  })
  .openapi(getMeRoute, async (c) =>
    ok(c, await describePrincipal(platformDb(c.env, c.var.d1Stats), c.var.principal)),
  );
