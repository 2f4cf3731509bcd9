import { decodeJwt } from "jose";
import createClient from "openapi-fetch";
import { useEffect, useState } from "preact/hooks";
import { ApiError, type Schemas, setCredentials, unwrap } from "../api/client";
import type { paths } from "../api/openapi";
import type { Role } from "./roles";

export interface SessionState {
  /** True while the page asks whether the session cookie still holds a session (a reload, a new tab). */
  restoring: boolean;
  /**
   * The server could not be reached when the page started: the person is the one last signed in on this device,
   * with no access token until the network comes back (the floor screens work from what the device saved).
   */
  offline: boolean;
  user: Schemas["SessionUser"] | null;
  /** The tenant every call names (X-Tenant-Id); null until one is chosen. */
  tenantId: string | null;
  /** Why the last session ended, for the sign-in page. */
  notice: string | null;
}

// The chosen tenant is remembered across reloads and tabs; it is an id, not a credential. So is the mark that this
// browser signed in: without it a first visit does not ask the API for a session it cannot have (a 401). The
// signed-in person (name, email, memberships: no credential either) is remembered so that a reload without the
// network still opens the floor screens, which work from what the device saved (docs/decisions/floor.md).
const TENANT_KEY = "wms.tenant";
/** The login (the access token's `sid`, an id and no credential) this browser is signed in with. */
const SIGNED_IN_KEY = "wms.signedIn";
const USER_KEY = "wms.user";
/** In sessionStorage: this tab's access token, its expiry on this machine's clock and its person. */
const ACCESS_KEY = "wms.access";
let state: SessionState = { restoring: true, offline: false, user: null, tenantId: null, notice: null };
const listeners = new Set<() => void>();
function update(next: Partial<SessionState>) {
  state = { ...state, ...next };
  if (next.tenantId !== undefined) {
    if (next.tenantId) localStorage.setItem(TENANT_KEY, next.tenantId);
    else localStorage.removeItem(TENANT_KEY);
  }
  for (const listener of listeners) listener();
}

/** The session, re-rendering the component when it changes. */
export function useSession(): SessionState {
  const [, setVersion] = useState(0);
  useEffect(() => {
    const rerender = () => setVersion((n) => n + 1);
    listeners.add(rerender);
    return () => listeners.delete(rerender);
  }, []);
  return state;
}

export function currentRole(session: SessionState = state): Role | undefined {
  return session.user?.memberships.find((m) => m.tenantId === session.tenantId)?.role;
}

/**
 * The merchant the member acts for in the chosen tenant (a merchant-scoped member sees and bills only its own), or
 * null for the whole tenant.
 */
export function currentMerchant(session: SessionState = state): string | null {
  return session.user?.memberships.find((m) => m.tenantId === session.tenantId)?.merchantId ?? null;
}

// The refresh token never reaches the page: the token endpoints keep it in an HttpOnly cookie scoped to
// /api/v1/auth (`X-Session-Cookie: 1`, see docs/decisions/web-app.md). The access token (one hour) is kept in this
// tab's sessionStorage with the person it names, so a reload reuses it until it is due for renewal instead of
// starting with a refresh (a round trip and a write before any page read). It counts only while the login it
// belongs to (its `sid`) is the one this browser's localStorage names: signing out, or signing in again, in any tab
// makes every tab's kept token worthless on its next load.
const tokens = createClient<paths>({ baseUrl: location.origin });
const cookie = { "X-Session-Cookie": "1" };
type PageSession = Schemas["Session"];

let accessToken: string | null = null;
let expiresAt = 0;
let refreshTimer: ReturnType<typeof setTimeout> | undefined;
const RENEW_BEFORE_MS = 60_000;

// Only the token's lifetime is trusted, measured from now on this machine's clock: a browser whose clock runs
// ahead of the server's would otherwise see every new token as nearly expired and renew in a loop.
function lifetimeOf(session: PageSession): number {
  const { iat, exp } = decodeJwt(session.token);
  return iat !== undefined && exp !== undefined
    ? (exp - iat) * 1000
    : Date.parse(session.expiresAt) - Date.now();
}

/** The login an access token belongs to (its refresh-token family). */
const loginOf = (token: string) => String(decodeJwt(token).sid ?? "1");

interface KeptToken {
  token: string;
  expiresAt: number;
  user: PageSession["user"];
}

/** This tab's access token from before a reload, while its login is this browser's and it is not due for renewal. */
function keptToken(): KeptToken | null {
  try {
    const kept = JSON.parse(sessionStorage.getItem(ACCESS_KEY) ?? "null") as KeptToken | null;
    const current = kept && localStorage.getItem(SIGNED_IN_KEY) === loginOf(kept.token);
    return current && kept.expiresAt - Date.now() > RENEW_BEFORE_MS ? kept : null;
  } catch {
    return null;
  }
}

function begin(session: PageSession) {
  use({ token: session.token, expiresAt: Date.now() + lifetimeOf(session), user: session.user });
}

/** Starts using an access token: calls carry it, it is renewed before it expires, the page shows its person. */
function use(kept: KeptToken) {
  accessToken = kept.token;
  expiresAt = kept.expiresAt;
  clearTimeout(refreshTimer);
  refreshTimer = setTimeout(() => void renew(), Math.max(0, expiresAt - Date.now() - RENEW_BEFORE_MS));
  sessionStorage.setItem(ACCESS_KEY, JSON.stringify(kept));
  const memberships = kept.user.memberships;
  const wanted = state.tenantId ?? localStorage.getItem(TENANT_KEY);
  const tenantId = memberships.some((m) => m.tenantId === wanted)
    ? wanted
    : memberships.length === 1
      ? (memberships[0]?.tenantId ?? null)
      : null;
  localStorage.setItem(SIGNED_IN_KEY, loginOf(kept.token));
  localStorage.setItem(USER_KEY, JSON.stringify(kept.user));
  update({ restoring: false, offline: false, user: kept.user, tenantId, notice: null });
}

function end(notice: string | null) {
  accessToken = null;
  expiresAt = 0;
  clearTimeout(refreshTimer);
  sessionStorage.removeItem(ACCESS_KEY);
  localStorage.removeItem(SIGNED_IN_KEY);
  localStorage.removeItem(USER_KEY);
  update({ restoring: false, offline: false, user: null, tenantId: null, notice });
}

export async function signIn(email: string, password: string) {
  begin(await unwrap(tokens.POST("/api/v1/auth/login", { headers: cookie, body: { email, password } })));
}

/** A new person accepts an invitation with their own name and password, and is signed in. */
export async function acceptInvitation(token: string, name: string, password: string) {
  const accepted = await unwrap(
    tokens.POST("/api/v1/auth/invitations/accept", { headers: cookie, body: { token, name, password } }),
  );
  if (!("token" in accepted)) throw new ApiError("No session was started", 500);
  begin(accepted);
}

/** After joining a tenant with an existing account: a fresh session lists the new membership. */
export async function rejoin(tenantId: string) {
  await renew();
  chooseTenant(tenantId);
}

export async function signOut() {
  await tokens.POST("/api/v1/auth/logout", { headers: cookie }).catch(() => undefined);
  end(null);
}

export function chooseTenant(tenantId: string | null) {
  update({ tenantId });
}

/** The signed-in person's id (also while offline), for what the device keeps per person. */
export const currentUserId = () => state.user?.id ?? null;

/** The chosen tenant's id, outside a component. */
export const sessionTenantId = () => state.tenantId;

/** The person last signed in on this device, when the server cannot be reached to ask. */
function rememberedUser(): SessionState["user"] {
  try {
    return JSON.parse(localStorage.getItem(USER_KEY) ?? "null") as SessionState["user"];
  } catch {
    return null;
  }
}

/**
 * A new access token for the session cookie's refresh token. Refresh tokens are single use and a reused one ends
 * the whole session, so refreshes are serialised across this origin's tabs (they share the cookie) by a Web
 * Lock, and within the tab share one request.
 */
type Refreshed = PageSession | null | undefined; // undefined: the server could not be reached, try later
let refreshing: Promise<Refreshed> | null = null;

async function refreshRequest(): Promise<Refreshed> {
  const { data, response } = await tokens.POST("/api/v1/auth/refresh", { headers: cookie });
  if (data) return data.data;
  return response.status === 401 ? null : undefined;
}

function refreshOnce(): Promise<Refreshed> {
  if (!refreshing) {
    const locked = navigator.locks.request("wms-session-refresh", refreshRequest) as Promise<unknown>;
    refreshing = (locked as Promise<Refreshed>)
      .catch(() => undefined)
      .finally(() => {
        refreshing = null;
      });
  }
  return refreshing;
}

/** Renews the access token; the session ends when the API refuses the cookie's refresh token. */
async function renew(): Promise<string | null> {
  const wasSignedIn = state.user !== null;
  const session = await refreshOnce();
  if (session === undefined) {
    // The server could not be reached: keep the token and try later. A page that starts so goes on as the person
    // last signed in here, offline, and asks again once the network is back.
    if (state.restoring) {
      const user = rememberedUser();
      const tenantId = localStorage.getItem(TENANT_KEY);
      update(user ? { restoring: false, offline: true, user, tenantId } : { restoring: false });
    }
    return accessToken;
  }
  if (session === null) {
    end(wasSignedIn ? "Your session has ended. Sign in again." : null);
    return null;
  }
  begin(session);
  return accessToken;
}

setCredentials({
  async accessToken() {
    if (accessToken && expiresAt - Date.now() < RENEW_BEFORE_MS) return renew();
    return accessToken;
  },
  async renew(refused) {
    if (!state.user) return null;
    return accessToken && accessToken !== refused ? accessToken : renew();
  },
  tenantId: () => state.tenantId,
});

// A reload: this tab's access token, while it is valid. A new tab, or a token due for renewal: the cookie may still
// hold a session. Offline, it is asked again when the network returns.
const kept = keptToken();
if (kept) use(kept);
else if (localStorage.getItem(SIGNED_IN_KEY)) void renew();
else update({ restoring: false });
const reconnect = () => {
  if (state.offline) void renew();
};
window.addEventListener("online", reconnect);
setInterval(reconnect, 10_000);
