// The web app's session: its refresh token travels in an HttpOnly cookie that page scripts cannot read, so a
// session survives reloads and new tabs without any script of the page holding the token.
// See docs/decisions/web-app.md ("Where tokens are kept").
import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { AppError } from "../http/errors";

const NAME = "wms_refresh";
// Sent only to the token endpoints (login, refresh, logout, invitation acceptance), never to the rest of the API.
const PATH = "/api/v1/auth";
const THIRTY_DAYS_S = 30 * 24 * 60 * 60;

/**
 * The request header by which a page of this origin asks for (and presents) the refresh token as a cookie. It is
 * described in the token routes' text, not declared as a parameter: it is for this origin's pages only, and the
 * client libraries, which keep their tokens themselves, should not offer it.
 */
export const SESSION_COOKIE_HEADER = "X-Session-Cookie";

export const SESSION_COOKIE_TEXT =
  " A page of this origin sends `X-Session-Cookie: 1` instead: the refresh token then lives in an HttpOnly, " +
  "Secure, SameSite=Strict cookie scoped to `/api/v1/auth` (the answer's `refreshToken` is empty), and a refresh " +
  "or logout without a body uses that cookie. Such a request is refused (403) when its `Origin` or " +
  "`Sec-Fetch-Site` names another site, and CORS does not allow the header from other origins.";

/**
 * Whether this request uses the session cookie. The cookie is ambient authority, so it is honoured only with the
 * custom header (a cross-site form cannot send one, and a cross-origin script needs a preflight CORS refuses) and
 * only when the browser says the request comes from this very origin.
 */
export function usesSessionCookie(c: Context): boolean {
  if (c.req.header(SESSION_COOKIE_HEADER) !== "1") return false;
  const origin = c.req.header("origin");
  const site = c.req.header("sec-fetch-site");
  if (
    (origin !== undefined && origin !== new URL(c.req.url).origin) ||
    (site !== undefined && site !== "same-origin")
  )
    throw new AppError("FORBIDDEN", "The session cookie is for pages of this origin only");
  return true;
}

/** The answer's session: with the cookie, the refresh token goes into it and the body's is empty. */
export function deliverSession<S extends { refreshToken: string }>(c: Context, session: S): S {
  if (!usesSessionCookie(c)) return session;
  setCookie(c, NAME, session.refreshToken, {
    path: PATH,
    httpOnly: true,
    secure: true,
    sameSite: "Strict",
    maxAge: THIRTY_DAYS_S,
  });
  return { ...session, refreshToken: "" };
}

/** The refresh token a refresh or logout presents: the body's, else (with the header) the cookie's. */
export function presentedRefreshToken(c: Context, fromBody: string | undefined): string | undefined {
  if (fromBody !== undefined) return fromBody;
  return usesSessionCookie(c) ? getCookie(c, NAME) : undefined;
}

/** Signing out, or a refused refresh: the browser forgets the cookie. */
export function clearSessionCookie(c: Context) {
  if (usesSessionCookie(c))
    deleteCookie(c, NAME, { path: PATH, httpOnly: true, secure: true, sameSite: "Strict" });
}
