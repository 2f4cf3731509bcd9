import { platformDb } from "../db/client";
import { envelopeOf, ok } from "../http/envelope";
import { defineRoute, errorResponse, jsonContent as json } from "../http/route";
import { createRouter } from "../http/router";
import { throttleLogin, throttleRefresh } from "../rate-limit/login-throttle";
import { revokeRefreshToken } from "./refresh-tokens";
import { LoggedOut, LoginBody, Me, RefreshBody, Session } from "./schemas";
import { describePrincipal, login, refresh } from "./service";

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
    "Wrong email and wrong password give the same 401. At most 10 failed attempts per email and 100 per client IP in 15 minutes (then 429).",
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
  responses: { 200: { description: "The current principal", ...json(envelopeOf(Me)) } },
});

export const sessionRoutes = createRouter()
  .openapi(loginRoute, async (c) => {
    const body = c.req.valid("json");
    const db = platformDb(c.env, c.var.d1Stats);
    return ok(c, await throttleLogin(c, body.email, () => login(db, c.env.JWT_SECRET, body)));
  })
  .openapi(refreshSessionRoute, async (c) => {
    const { refreshToken } = c.req.valid("json");
    const db = platformDb(c.env, c.var.d1Stats);
    return ok(c, await throttleRefresh(c, () => refresh(db, c.env.JWT_SECRET, refreshToken)));
  })
  .openapi(logoutRoute, async (c) => {
    const { refreshToken } = c.req.valid("json");
    return ok(c, { revoked: await revokeRefreshToken(platformDb(c.env, c.var.d1Stats), refreshToken) });
  })
  .openapi(getMeRoute, async (c) =>
    ok(c, await describePrincipal(platformDb(c.env, c.var.d1Stats), c.var.principal)),
  );
