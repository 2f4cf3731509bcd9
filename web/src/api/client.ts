import createClient from "openapi-fetch";
import { isKeyedWrite } from "./keyed-writes";
import type { components, paths } from "./openapi";

export type Schemas = components["schemas"];

/** Credentials the API client attaches; the session module provides them (see session/session.ts). */
export interface Credentials {
  /** A valid access token, refreshed first when it is about to expire; null when signed out. */
  accessToken(): Promise<string | null>;
  /** The API said 401 to `refused`, a token we thought valid: the one renewed since, or a new one (null when the
   * session has ended). Calls refused together renew once. */
  renew(refused: string): Promise<string | null>;
  tenantId(): string | null;
}

let credentials: Credentials | null = null;
export function setCredentials(source: Credentials) {
  credentials = source;
}

/** An answer of the API that is not a success, carrying the envelope's message and per-problem errors. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly errors: string[] = [],
  ) {
    super(message);
  }
}

/** A new Idempotency-Key. Make one when the person acts and pass it as the `Idempotency-Key` header to reuse it
 * beyond one call (an offline queue keeps it with the queued write); otherwise the client makes one per call. */
export const newIdempotencyKey = (): string => crypto.randomUUID();

// Answers that say the server did nothing lasting (a 5xx releases the key) or will take the key again later.
const RETRYABLE = new Set([500, 502, 503, 504]);
const MAX_RETRIES = 4;
const MAX_RETRY_AFTER_MS = 10_000;

/** At most 0.2 s, 0.4 s, 0.8 s, 1.6 s, each between half and all of it (jitter, so tabs and phones do not retry in
 * step): a person waits at most 3 s for "cannot be reached", and submitting again re-sends the write's key. */
const backoffMs = (attempt: number) => (100 + Math.random() * 100) * 2 ** attempt;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Keys of writes whose outcome is unknown (no answer came back, even after the retries), by what they send: the
 * person submitting the very same write again re-sends it with its key, so the server replays what it did instead
 * of doing it twice. A write that got an answer forgets its key: submitting it again is a new write.
 */
const unansweredKeys = new Map<string, string>();

/** Sends one request, repeated with bounded backoff while it is safe: reads and keyed writes whose answer was lost or
 * was a 5xx, anything refused with `Retry-After` (a 429, or a 409 while the key's first request still runs). */
async function send(request: Request, keyed: boolean): Promise<Response> {
  const repeatable = request.method === "GET" || keyed;
  for (let attempt = 0; ; attempt++) {
    let response: Response;
    try {
      response = await fetch(request.clone());
    } catch {
      if (repeatable && attempt < MAX_RETRIES) {
        await sleep(backoffMs(attempt));
        continue;
      }
      throw new ApiError("The server cannot be reached. Check your connection and try again.", 0);
    }
    const retryAfter = Number(response.headers.get("retry-after") ?? Number.NaN) * 1000;
    const waitMs = Number.isFinite(retryAfter) ? retryAfter : null;
    const refusedForNow =
      waitMs !== null && waitMs <= MAX_RETRY_AFTER_MS && [409, 429, 503].includes(response.status);
    if (attempt < MAX_RETRIES && (refusedForNow || (repeatable && RETRYABLE.has(response.status)))) {
      await sleep(waitMs ?? backoffMs(attempt));
      continue;
    }
    return response;
  }
}

/** Gives a write its Idempotency-Key (the caller's, the one of the same write left unanswered, or a new one). */
async function withKey(request: Request): Promise<{ keyed: boolean; settle: (answered: boolean) => void }> {
  const none = { keyed: false, settle: () => undefined };
  if (!isKeyedWrite(request.method, new URL(request.url).pathname)) return none;
  if (request.headers.has("Idempotency-Key")) return { keyed: true, settle: () => undefined };
  const write = `${request.method} ${request.url}\n${await request.clone().text()}`;
  const key = unansweredKeys.get(write) ?? newIdempotencyKey();
  request.headers.set("Idempotency-Key", key);
  return {
    keyed: true,
    settle: (answered) => {
      if (answered) unansweredKeys.delete(write);
      else unansweredKeys.set(write, key);
    },
  };
}

const writeListeners = new Set<(path: string) => void>();
/** Calls `listener` with the path of every write this page sends, once it is answered or given up on (what the
 * page has read of that resource may have changed): the lookups it caches forget what a write may change. */
export function onWrite(listener: (path: string) => void) {
  writeListeners.add(listener);
}

/** Adds the access token, tenant and Idempotency-Key to every call; a 401 gets one renewed token and one retry. */
async function authorizedFetch(request: Request): Promise<Response> {
  const { keyed, settle } = await withKey(request);
  try {
    const response = await authorizedSend(request, keyed);
    // A 5xx may come from a gateway after the server acted: the outcome is unknown, so the key is kept.
    settle(response.status < 500);
    return response;
  } catch (error) {
    settle(false);
    throw error;
  } finally {
    if (request.method !== "GET")
      for (const listener of writeListeners) listener(new URL(request.url).pathname);
  }
}

async function authorizedSend(request: Request, keyed: boolean): Promise<Response> {
  const token = await credentials?.accessToken();
  if (!token) return send(request, keyed);
  const tenantId = credentials?.tenantId();
  const authorize = (bearer: string) => {
    request.headers.set("Authorization", `Bearer ${bearer}`);
    if (tenantId) request.headers.set("X-Tenant-Id", tenantId);
    return request;
  };
  const response = await send(authorize(token), keyed);
  if (response.status !== 401) return response;
  const renewed = await credentials?.renew(token);
  return renewed ? send(authorize(renewed), keyed) : response;
}

/** The typed client of the API (types generated from the served OpenAPI document, see ./openapi.ts). */
export const api = createClient<paths>({ baseUrl: location.origin, fetch: authorizedFetch });

/** The `data` of a success envelope (a report's 200 may also be CSV text: that is not an envelope). */
type EnvelopeData<D> = D extends { data: infer T } ? T : never;

function errorOf(error: unknown, response: Response): ApiError {
  const envelope = error as { message?: unknown; errors?: unknown } | undefined;
  if (envelope && typeof envelope.message === "string") {
    const errors = Array.isArray(envelope.errors) ? envelope.errors.map(String) : [];
    return new ApiError(envelope.message, response.status, errors);
  }
  return new ApiError(
    `The server answered ${response.status} ${response.statusText}`.trim(),
    response.status,
  );
}

/** The `data` of a successful envelope, or an ApiError with the API's own message. */
export async function unwrap<D>(
  call: Promise<{ data?: D; error?: unknown; response: Response }>,
): Promise<EnvelopeData<D>> {
  const { data, error, response } = await call;
  if (!response.ok || typeof data !== "object" || data === null) throw errorOf(error, response);
  return (data as unknown as { data: EnvelopeData<D> }).data;
}
