import { platformDb } from "../db/client";
import { envelopeOf, ok } from "../http/envelope";
import { createRouter } from "../http/router";
import { defineRoute, errorResponse, jsonContent as json } from "../pipeline/route";
import { signInClient, throttleLogin, throttleRefresh } from "../rate-limit/login-throttle";
import { describePrincipal } from "./describe-principal";
import { isKnownClient, rememberClientAfterResponse } from "./known-clients";
import { login } from "./login";
import { refreshSession } from "./refresh-session";
import { revokeRefreshToken } from "./refresh-tokens";
import { LoggedOut, LoginBody, Me, RefreshBody, Session } from "./schemas";

const tags = ["Auth"];
const throttled = {
  429: errorResponse("Too many failed attempts from this email or client IP; see Retry-After"),
};

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
    "IPv6 /64).",
  request: { body: { required: true, ...json(LoginBody) } },
  responses: {
    200: { description: "A new session", ...json(envelopeOf(Session)) },
    401: errorResponse("Invalid email or password"),
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
    "Each refresh token works once. Presenting one that was already used revokes every token of that login (reuse detection).",
  request: { body: { required: true, ...json(RefreshBody) } },
  responses: {
    200: { description: "The rotated session", ...json(envelopeOf(Session)) },
    401: errorResponse("Unknown, expired, revoked or reused refresh token"),
    ...throttled,
  },
});

const logoutRoute = defineRoute("public", {
  method: "post",
  path: "/auth/logout",
  operationId: "logout",
  tags,
  summary: "Revoke a refresh token and every token of its login",
  description: "Access tokens already issued stay valid until they expire (at most 1 hour).",
  request: { body: { required: true, ...json(RefreshBody) } },
  responses: { 200: { description: "Whether a session was revoked", ...json(envelopeOf(LoggedOut)) } },
});

const getMeRoute = defineRoute("credential", {
  method: "get",
  path: "/auth/me",
  operationId: "getMe",
  tags,
  summary: "Who is calling: the user and their memberships, or the API key's tenant and scopes",
  description:
    "`type` says which: a JWT's user with every tenant they belong to and their role there, or an API key with " +
    "its tenant and scopes. Needs no tenant; with `X-Tenant-Id` the call counts against that tenant's rate limit.",
  responses: { 200: { description: "The current principal", ...json(envelopeOf(Me)) } },
});

export const sessionRoutes = createRouter()
  .openapi(loginRoute, async (c) => {
    const body = c.req.valid("json");
    const db = platformDb(c.env, c.var.d1Stats);
    // Read alongside the limiter calls, not after them: the known-client check costs no extra round trip.
    const known = isKnownClient(db, body.email, signInClient(c));
    const session = await throttleLogin(c, body.email, known, () => login(db, c.env.JWT_SECRET, body));
    rememberClientAfterResponse(c, session.user.id);
    return ok(c, session);
  })
  .openapi(refreshSessionRoute, async (c) => {
    const { refreshToken } = c.req.valid("json");
    const db = platformDb(c.env, c.var.d1Stats);
    return ok(c, await throttleRefresh(c, () => refreshSession(db, c.env.JWT_SECRET, refreshToken)));
  })
  .openapi(logoutRoute, async (c) => {
    const { refreshToken } = c.req.valid("json");
    return ok(c, { revoked: await revokeRefreshToken(platformDb(c.env, c.var.d1Stats), refreshToken) });
  })
  .openapi(getMeRoute, async (c) =>
    ok(c, await describePrincipal(platformDb(c.env, c.var.d1Stats), c.var.principal)),
  );
