import createFetchClient, { type Client } from "openapi-fetch";
import { ApiConnectionError, ApiTimeoutError, errorForStatus, WarehouseApiError } from "./errors.js";
import { OPERATIONS } from "./generated/operations.js";
import type { paths } from "./generated/schema.js";
import { CLIENT_VERSION } from "./generated/version.js";
import type { OperationMeta } from "./types.js";

/** How the client authenticates: an API key, a user's login, or (for `platform.*`) the operator token. */
export type WarehouseClientOptions = {
  /** The API's origin, e.g. `https://wms.example.com` (a trailing `/api/v1` is accepted too). */
  baseUrl: string;
  apiKey?: string;
  email?: string;
  password?: string;
  /** The tenant a logged-in user acts on (sent as `X-Tenant-Id`). */
  tenantId?: string;
  /** The platform operator token, for `platform.*` only. */
  platformToken?: string;
  /**
   * One deadline per call, in milliseconds, covering every attempt and every wait between them (default 60 000):
   * when it passes, the call fails with `ApiTimeoutError` (or the last error, when waiting longer would pass it).
   */
  timeoutMs?: number;
  /** Per attempt, in milliseconds (default 30 000; never past the call's deadline). */
  attemptTimeoutMs?: number;
  /** Retries after the first attempt (default 3). */
  maxRetries?: number;
  /**
   * The longest `Retry-After` a call waits out, in milliseconds (default 60 000); a longer one, or one that would
   * end past the call's deadline, surfaces the `RateLimitError` at once.
   */
  maxRetryAfterMs?: number;
  /** Refresh the access token this many seconds before it expires (default 60). */
  refreshBeforeExpirySeconds?: number;
  /** A fetch implementation (default: the global one). */
  fetch?: typeof globalThis.fetch;
};

/**
 * Per call: your own Idempotency-Key (default: a new one per call, reused by its retries), a signal that cancels
 * the call (the promise rejects with the signal's reason), and this call's own deadline.
 */
export type CallOptions = {
  idempotencyKey?: string;
  signal?: AbortSignal;
  timeoutMs?: number;
};

type SendInit = { headers: Record<string, string>; signal: AbortSignal };
type Sent = { data?: unknown; error?: unknown; response: Response };
type Unwrapped<R extends Sent> = NonNullable<R["data"]> extends { data: infer D } ? D : never;
type Page<T> = { items: T[]; totalPages: number };

// Answers that say nothing was done or the server failed: repeated only when repeating is safe.
const RETRYABLE_STATUS = new Set([500, 502, 503, 504]);

function newIdempotencyKey(): string {
  // Node 18 has no global crypto: the key only has to be unique, not secret.
  const random = globalThis.crypto?.randomUUID?.();
  return (
    random ??
    `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}-${Math.random().toString(36).slice(2)}`
  );
}

/** Waits `ms`, or rejects with the signal's reason as soon as it aborts. */
function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const abort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", abort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", abort, { once: true });
  });
}

/** `node/22.1.0`, `bun/1.1.0`, `deno/2.0.0`, or what the browser or Worker calls itself. */
function runtime(): string {
  const scope = globalThis as {
    process?: { versions?: Record<string, string | undefined> };
    Deno?: { version?: { deno?: string } };
    navigator?: { userAgent?: string };
  };
  const versions = scope.process?.versions;
  if (scope.Deno?.version?.deno) return `deno/${scope.Deno.version.deno}`;
  if (versions?.bun) return `bun/${versions.bun}`;
  if (versions?.node) return `node/${versions.node}`;
  return scope.navigator?.userAgent ?? "unknown";
}

/** `warehouse-api-typescript/1.0.0 (node/22.1.0)`: which client and runtime sent a request, for support. */
export const USER_AGENT = `warehouse-api-typescript/${CLIENT_VERSION} (${runtime()})`;

/** Exponential backoff with jitter: about 0.5 s, 1 s, 2 s, ... (at most 8 s), each between half and all of it. */
function backoffMs(attempt: number): number {
  const ceiling = Math.min(8000, 500 * 2 ** attempt);
  return ceiling / 2 + Math.random() * (ceiling / 2);
}

/** `Retry-After` in seconds: a number of seconds or an HTTP date. */
function retryAfterSeconds(response: Response): number | null {
  const value = response.headers.get("retry-after");
  if (value === null) return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds);
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, (date - Date.now()) / 1000);
}

function errorFrom(response: Response, body: unknown): WarehouseApiError {
  const envelope = (typeof body === "object" && body !== null ? body : {}) as {
    message?: unknown;
    errors?: unknown;
  };
  const message =
    typeof envelope.message === "string"
      ? envelope.message
      : `HTTP ${response.status} ${response.statusText}`;
  return errorForStatus({
    status: response.status,
    code: response.headers.get("x-error-code") ?? `HTTP_${response.status}`,
    message,
    errors: Array.isArray(envelope.errors) ? envelope.errors.map(String) : [message],
    requestId: response.headers.get("x-request-id"),
    retryAfter: retryAfterSeconds(response),
  });
}

/** A body that is either JSON or already CSV text (`products.import` takes both). */
export const jsonOrText = (body: unknown): string => (typeof body === "string" ? body : JSON.stringify(body));

/** One attempt's signal: the caller's, plus the per-attempt timeout. */
function attemptSignal(timeoutMs: number, caller?: AbortSignal): { signal: AbortSignal; done: () => void } {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new TimeoutError()), timeoutMs);
  const forward = () => controller.abort(caller?.reason);
  if (caller?.aborted) forward();
  caller?.addEventListener("abort", forward, { once: true });
  return {
    signal: controller.signal,
    done: () => {
      clearTimeout(timer);
      caller?.removeEventListener("abort", forward);
    },
  };
}

class TimeoutError extends Error {
  override readonly name = "TimeoutError";
}

/**
 * A user's login: logs in on first use, refreshes the access token shortly before it expires (storing the
 * rotated refresh token), and logs in again when the refresh token is no longer accepted.
 */
class Session {
  private token: string | null = null;
  private refreshToken: string | null = null;
  private expiresAt = 0;
  private pending: Promise<string> | null = null;

  constructor(
    private readonly transport: Transport,
    private readonly credentials: { email: string; password: string },
    private readonly marginMs: number,
  ) {}

  /** A valid access token; concurrent callers share one login or refresh. */
  accessToken(): Promise<string> {
    if (this.token && Date.now() < this.expiresAt - this.marginMs) return Promise.resolve(this.token);
    this.pending ??= this.renew().finally(() => {
      this.pending = null;
    });
    return this.pending;
  }

  /** Forgets the access token (the server refused it), so the next call renews it. */
  invalidate(): void {
    this.expiresAt = 0;
  }

  private async renew(): Promise<string> {
    const refreshToken = this.refreshToken;
    if (refreshToken) {
      try {
        return this.adopt(
          await this.transport.call(OPERATIONS.refreshSession, undefined, (init) =>
            this.transport.api.POST("/api/v1/auth/refresh", { ...init, body: { refreshToken } }),
          ),
        );
      } catch (error) {
        // A refresh token that was used, revoked or expired: start a new login.
        if (!(error instanceof WarehouseApiError) || error.status !== 401) throw error;
      }
    }
    return this.adopt(
      await this.transport.call(OPERATIONS.login, undefined, (init) =>
        this.transport.api.POST("/api/v1/auth/login", { ...init, body: this.credentials }),
      ),
    );
  }

  private adopt(session: { token: string; refreshToken: string; expiresAt: string }): string {
    this.token = session.token;
    this.refreshToken = session.refreshToken;
    this.expiresAt = Date.parse(session.expiresAt);
    return session.token;
  }
}

/**
 * Sends every call: credentials, tenant, Idempotency-Key, Consistency-Token, the per-attempt timeout, and the
 * retries (429 after Retry-After; 502/503/504 and network errors with backoff when a repeat is safe).
 */
export class Transport {
  readonly api: Client<paths>;
  private readonly session: Session | null;
  private readonly timeoutMs: number;
  private readonly attemptTimeoutMs: number;
  private readonly maxRetries: number;
  private readonly maxRetryAfterMs: number;
  private consistencyToken: string | null = null;

  constructor(private readonly options: WarehouseClientOptions) {
    const baseUrl = options.baseUrl.replace(/\/+$/, "").replace(/\/api\/v1$/, "");
    const fetchImpl = options.fetch ?? globalThis.fetch;
    this.api = createFetchClient<paths>({ baseUrl, fetch: (request) => fetchImpl(request) });
    this.timeoutMs = options.timeoutMs ?? 60_000;
    this.attemptTimeoutMs = options.attemptTimeoutMs ?? 30_000;
    this.maxRetries = options.maxRetries ?? 3;
    this.maxRetryAfterMs = options.maxRetryAfterMs ?? 60_000;
    const { email, password } = options;
    if (!options.apiKey && !(email && password) && !options.platformToken) {
      throw new TypeError(
        "WarehouseClient needs apiKey, or email and password (and tenantId), or platformToken",
      );
    }
    this.session =
      !options.apiKey && email && password
        ? new Session(this, { email, password }, (options.refreshBeforeExpirySeconds ?? 60) * 1000)
        : null;
  }

  private async headersFor(
    op: OperationMeta,
    idempotencyKey: string | undefined,
  ): Promise<Record<string, string>> {
    const headers: Record<string, string> = { "User-Agent": USER_AGENT };
    if (idempotencyKey) headers["Idempotency-Key"] = idempotencyKey;
    if (op.access === "public") return headers;
    if (op.access === "platform") {
      if (!this.options.platformToken)
        throw new TypeError(`${op.operationId} needs the platformToken option`);
      headers.Authorization = `Bearer ${this.options.platformToken}`;
      return headers;
    }
    if (this.options.apiKey) {
      headers["X-API-Key"] = this.options.apiKey;
    } else if (this.session) {
      headers.Authorization = `Bearer ${await this.session.accessToken()}`;
      if (this.options.tenantId) headers["X-Tenant-Id"] = this.options.tenantId;
    }
    if (this.consistencyToken) headers["Consistency-Token"] = this.consistencyToken;
    return headers;
  }

  /**
   * Forgets the stored Consistency-Token when the server refused the one `headers` carried (a 400 naming the
   * header: sealed under a key the server no longer has, or for another tenant), so the call can go again
   * without it. Only the stored token: one the caller passed is theirs to replace.
   */
  private dropRefusedToken(error: WarehouseApiError, headers: Record<string, string>): boolean {
    const sent = headers["Consistency-Token"];
    if (error.status !== 400 || !sent || sent !== this.consistencyToken) return false;
    if (!error.errors.some((message) => message.startsWith("Consistency-Token:"))) return false;
    this.consistencyToken = null;
    return true;
  }

  /** Sends one operation (retrying as its table entry allows) and returns the envelope's `data`. */
  async call<R extends Sent>(
    op: OperationMeta,
    options: (CallOptions & { headers?: Record<string, string | undefined> }) | undefined,
    send: (init: SendInit) => Promise<R>,
  ): Promise<Unwrapped<R>> {
    const idempotencyKey =
      op.retry === "idempotency-key" ? (options?.idempotencyKey ?? newIdempotencyKey()) : undefined;
    const extra = Object.fromEntries(
      Object.entries(options?.headers ?? {}).filter(
        (entry): entry is [string, string] => entry[1] !== undefined,
      ),
    );
    const deadline = Date.now() + (options?.timeoutMs ?? this.timeoutMs);
    const caller = options?.signal;
    let reauthenticated = false;
    let tokenDropped = false;
    for (let attempt = 0; ; attempt++) {
      const headers = { ...(await this.headersFor(op, idempotencyKey)), ...extra };
      const attemptMs = Math.min(this.attemptTimeoutMs, deadline - Date.now());
      const { signal, done } = attemptSignal(Math.max(0, attemptMs), caller);
      let sent: R;
      try {
        sent = await send({ headers, signal });
      } catch (error) {
        if (caller?.aborted) throw caller.reason;
        const failure =
          signal.reason instanceof TimeoutError
            ? new ApiTimeoutError({
                status: 0,
                code: "TIMEOUT",
                message: `No response within ${Math.round(attemptMs)} ms`,
                cause: error,
              })
            : new ApiConnectionError({
                status: 0,
                code: "NETWORK_ERROR",
                message: `Network error: ${error instanceof Error ? error.message : String(error)}`,
                cause: error,
              });
        if (op.retry === "refused-only") throw failure;
        await this.pause(attempt, backoffMs(attempt), deadline, failure, caller);
        continue;
      } finally {
        done();
      }
      const { response } = sent;
      const token = response.headers.get("consistency-token");
      if (token) this.consistencyToken = token;
      if (response.ok) {
        const data = sent.data;
        return (
          typeof data === "object" && data !== null && "data" in data ? data.data : data
        ) as Unwrapped<R>;
      }
      if (response.status === 401 && this.session && op.access !== "public" && !reauthenticated) {
        // The access token was refused (revoked, or expired early): renew it once and repeat.
        reauthenticated = true;
        this.session.invalidate();
        attempt--;
        continue;
      }
      const error = errorFrom(response, sent.error);
      if (!tokenDropped && this.dropRefusedToken(error, headers)) {
        // Refused before anything ran, so any operation may go again: once, without the token.
        tokenDropped = true;
        attempt--;
        continue;
      }
      if (response.status === 429) {
        const waitMs = error.retryAfter === null ? backoffMs(attempt) : error.retryAfter * 1000;
        if (waitMs > this.maxRetryAfterMs) throw error;
        await this.pause(attempt, waitMs, deadline, error, caller);
        continue;
      }
      if (RETRYABLE_STATUS.has(response.status) && op.retry !== "refused-only") {
        await this.pause(attempt, backoffMs(attempt), deadline, error, caller);
        continue;
      }
      throw error;
    }
  }

  /** Waits before the next attempt; throws `error` instead when the retries are spent or the wait ends past the deadline. */
  private async pause(
    attempt: number,
    ms: number,
    deadline: number,
    error: WarehouseApiError,
    signal: AbortSignal | undefined,
  ): Promise<void> {
    if (attempt >= this.maxRetries || Date.now() + ms >= deadline) throw error;
    await sleep(ms, signal);
  }

  /** Every item of a paged operation, fetching page after page until `totalPages`. */
  async *paginate<T>(fetchPage: (page: number) => Promise<Page<T>>): AsyncGenerator<T, void, undefined> {
    for (let page = 1; ; page++) {
      const result = await fetchPage(page);
      yield* result.items;
      if (page >= result.totalPages) return;
    }
  }
}
