// The session worker: the only code that ever holds the refresh token. It signs in (also by accepting an
// invitation as a new person), refreshes and signs out,
// and gives the page access tokens only. A script injected into the page could read anything the page keeps
// (memory, storage) or wrap its fetch, but not this worker's memory or its requests. See docs/decisions/web-app.md.
import createClient from "openapi-fetch";
import type { components, paths } from "../api/openapi";
import type { PageSession, SessionReply, SessionRequest } from "./protocol";

// The few members of a dedicated worker's global scope used here (the app compiles against the DOM library).
interface WorkerScope {
  location: Location;
  postMessage(message: unknown): void;
  onmessage: ((event: MessageEvent<{ id: number; request: SessionRequest }>) => void) | null;
}
const scope = self as unknown as WorkerScope;

type Session = components["schemas"]["Session"];

const api = createClient<paths>({ baseUrl: scope.location.origin });
let refreshToken: string | null = null;
// Refresh tokens are single use: concurrent refreshes must share one request, or the second would present
// a used token and the API would end the whole session (reuse detection).
let refreshing: Promise<SessionReply> | null = null;

function keep(session: Session): SessionReply {
  refreshToken = session.refreshToken;
  const { refreshToken: _kept, ...visible } = session;
  return { ok: true, session: visible satisfies PageSession };
}

function failure(error: unknown, response: Response): SessionReply {
  const envelope = error as { message?: string; errors?: string[] } | undefined;
  return {
    ok: false,
    status: response.status,
    message: envelope?.message ?? `The server answered ${response.status}`,
    errors: envelope?.errors ?? [],
  };
}

async function settle(call: Promise<{ data?: { data: Session }; error?: unknown; response: Response }>) {
  const { data, error, response } = await call;
  return data ? keep(data.data) : failure(error, response);
}

/** A new person's acceptance answers a Session, as a login does (an existing account's is the page's call). */
async function accept(token: string, name: string, password: string): Promise<SessionReply> {
  const { data, error, response } = await api.POST("/api/v1/auth/invitations/accept", {
    body: { token, name, password },
  });
  if (!data) return failure(error, response);
  return "refreshToken" in data.data
    ? keep(data.data)
    : failure({ message: "No session was started" }, response);
}

async function refresh(): Promise<SessionReply> {
  if (!refreshToken) return { ok: true, session: null };
  const reply = await settle(api.POST("/api/v1/auth/refresh", { body: { refreshToken } }));
  if (!reply.ok && reply.status === 401) {
    refreshToken = null;
    return { ok: true, session: null };
  }
  return reply;
}

async function handle(request: SessionRequest): Promise<SessionReply> {
  switch (request.op) {
    case "signIn":
      return settle(
        api.POST("/api/v1/auth/login", { body: { email: request.email, password: request.password } }),
      );
    case "acceptInvitation":
      return accept(request.token, request.name, request.password);
    case "refresh":
      refreshing ??= refresh().finally(() => {
        refreshing = null;
      });
      return refreshing;
    case "signOut": {
      const token = refreshToken;
      refreshToken = null;
      if (token)
        await api.POST("/api/v1/auth/logout", { body: { refreshToken: token } }).catch(() => undefined);
      return { ok: true, session: null };
    }
  }
}

scope.onmessage = async (event) => {
  const { id, request } = event.data;
  let reply: SessionReply;
  try {
    reply = await handle(request);
  } catch {
    reply = {
      ok: false,
      status: 0,
      message: "The server cannot be reached. Check your connection and try again.",
      errors: [],
    };
  }
  scope.postMessage({ id, reply });
};
