import { decodeJwt } from "jose";
import { useEffect, useState } from "preact/hooks";
import { ApiError, type Schemas, setCredentials } from "../api/client";
import type { PageSession, SessionReply, SessionRequest } from "./protocol";
import type { Role } from "./roles";
import workerUrl from "./session-worker.ts?worker&url";

export interface SessionState {
  user: Schemas["SessionUser"] | null;
  /** The tenant every call names (X-Tenant-Id); null until one is chosen. */
  tenantId: string | null;
  /** Why the last session ended, for the sign-in page. */
  notice: string | null;
}

let state: SessionState = { user: null, tenantId: null, notice: null };
const listeners = new Set<() => void>();
function update(next: Partial<SessionState>) {
  state = { ...state, ...next };
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

// The access token lives in this module's memory only (never in storage); the refresh token never reaches
// the page at all: the session worker keeps it.
let accessToken: string | null = null;
let expiresAt = 0;
let refreshTimer: ReturnType<typeof setTimeout> | undefined;
const RENEW_BEFORE_MS = 60_000;

// Trusted Types (required by the app's CSP): the worker's URL is the one script URL this app ever creates.
interface TrustedTypesFactory {
  createPolicy(
    name: string,
    rules: { createScriptURL(url: string): string },
  ): { createScriptURL(url: string): string };
}
const trustedTypes = (globalThis as { trustedTypes?: TrustedTypesFactory }).trustedTypes;
const workerPolicy = trustedTypes?.createPolicy("session-worker", {
  createScriptURL(url) {
    if (url !== workerUrl) throw new TypeError(`Refusing to load ${url} as a script`);
    return url;
  },
});

let worker: Worker | undefined;
let nextId = 0;
const pending = new Map<number, (reply: SessionReply) => void>();

function ask(request: SessionRequest): Promise<SessionReply> {
  if (!worker) {
    const url = workerPolicy ? workerPolicy.createScriptURL(workerUrl) : workerUrl;
    worker = new Worker(url, { type: "module", name: "session" });
    worker.onmessage = (event: MessageEvent<{ id: number; reply: SessionReply }>) => {
      pending.get(event.data.id)?.(event.data.reply);
      pending.delete(event.data.id);
    };
  }
  const id = ++nextId;
  return new Promise((resolve) => {
    pending.set(id, resolve);
    worker?.postMessage({ id, request });
  });
}

// Only the token's lifetime is trusted, measured from now on this machine's clock: a browser whose clock runs
// ahead of the server's would otherwise see every new token as nearly expired and renew in a loop.
function lifetimeOf(session: PageSession): number {
  const { iat, exp } = decodeJwt(session.token);
  return iat !== undefined && exp !== undefined
    ? (exp - iat) * 1000
    : Date.parse(session.expiresAt) - Date.now();
}

function begin(session: PageSession) {
  accessToken = session.token;
  expiresAt = Date.now() + lifetimeOf(session);
  clearTimeout(refreshTimer);
  refreshTimer = setTimeout(() => void renew(), Math.max(0, expiresAt - Date.now() - RENEW_BEFORE_MS));
  const memberships = session.user.memberships;
  const keepTenant = memberships.some((m) => m.tenantId === state.tenantId);
  const tenantId = keepTenant
    ? state.tenantId
    : memberships.length === 1
      ? (memberships[0]?.tenantId ?? null)
      : null;
  update({ user: session.user, tenantId, notice: null });
}

function end(notice: string | null) {
  accessToken = null;
  expiresAt = 0;
  clearTimeout(refreshTimer);
  update({ user: null, tenantId: null, notice });
}

function sessionOf(reply: SessionReply): PageSession | null {
  if (!reply.ok) throw new ApiError(reply.message, reply.status, reply.errors);
  return reply.session;
}

export async function signIn(email: string, password: string) {
  const session = sessionOf(await ask({ op: "signIn", email, password }));
  if (session) begin(session);
}

/** A new person accepts an invitation with their own name and password, and is signed in. */
export async function acceptInvitation(token: string, name: string, password: string) {
  const session = sessionOf(await ask({ op: "acceptInvitation", token, name, password }));
  if (session) begin(session);
}

/** After joining a tenant with an existing account: a fresh session lists the new membership. */
export async function rejoin(tenantId: string) {
  await renew();
  chooseTenant(tenantId);
}

export async function signOut() {
  await ask({ op: "signOut" });
  end(null);
}

export function chooseTenant(tenantId: string | null) {
  update({ tenantId });
}

/** A new access token from the worker; the session ends when the API refuses the refresh token. */
async function renew(): Promise<string | null> {
  if (!state.user) return null;
  const reply = await ask({ op: "refresh" });
  if (!reply.ok) return accessToken; // the server could not be reached: keep the token, try again later
  if (!reply.session) {
    end("Your session has ended. Sign in again.");
    return null;
  }
  begin(reply.session);
  return accessToken;
}

setCredentials({
  async accessToken() {
    if (accessToken && expiresAt - Date.now() < RENEW_BEFORE_MS) return renew();
    return accessToken;
  },
  renew,
  tenantId: () => state.tenantId,
});
