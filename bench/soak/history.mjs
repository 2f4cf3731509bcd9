// The history: every attempt a soak client makes (request and response), written whole to a JSON-lines file
// and kept in memory compactly (the ids a response named instead of its body) for the checker.
import { AsyncLocalStorage } from "node:async_hooks";
import { createWriteStream } from "node:fs";

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
const KEPT_HEADERS = ["x-fault-injected", "x-ratelimit-limit", "retry-after", "x-error-code", "x-request-id"];

/** `/api/v1/orders/0190...` -> `/orders/{id}`: the endpoint an attempt belongs to, for per-endpoint figures. */
export const endpointOf = (method, url) =>
  `${method} ${new URL(url).pathname.replace(/^\/api\/v1/, "").replace(UUID, "{id}")}`;

export class History {
  entries = [];
  #file;
  #context = new AsyncLocalStorage();
  /** The fault header every request carries now (set by the fault schedule). */
  faultHeader = null;
  /** Once the load stops, attempts still to come (a client's retries) fail at once, unrecorded. */
  stopped = false;

  constructor(path) {
    this.#file = createWriteStream(path);
  }

  /**
   * A fetch for one tenant's client: sends each attempt (with the current fault header) and records it.
   * Attempts made inside `track()` join its operation, so `expect` lands on the one that succeeded.
   */
  fetchFor(tenantId) {
    return async (request) => {
      if (this.stopped) throw new Error("the soak has stopped");
      const fault = this.faultHeader;
      if (fault) request.headers.set("X-Fault-Inject", fault);
      const requestBody = request.body ? await request.clone().text() : undefined;
      const sentAt = Date.now();
      const entry = {
        tenantId,
        op: this.#context.getStore()?.op ?? "setup",
        endpoint: endpointOf(request.method, request.url),
        method: request.method,
        path: new URL(request.url).pathname + new URL(request.url).search,
        idempotencyKey: request.headers.get("idempotency-key") ?? undefined,
        fault: fault ?? undefined,
        sentAt,
      };
      this.#context.getStore()?.attempts.push(entry);
      let response;
      try {
        response = await fetch(request);
      } catch (error) {
        Object.assign(entry, { status: 0, receivedAt: Date.now(), error: String(error.cause ?? error) });
        this.#write(entry, requestBody, undefined);
        throw error;
      }
      const text = await response.clone().text();
      entry.status = response.status;
      entry.receivedAt = Date.now();
      entry.headers = Object.fromEntries(
        KEPT_HEADERS.filter((name) => response.headers.has(name)).map((name) => [
          name,
          response.headers.get(name),
        ]),
      );
      entry.ids = [...new Set(text.match(UUID) ?? [])];
      this.#write(entry, requestBody, text);
      return response;
    };
  }

  /** Runs one operation; `expect(data)` describes what its acknowledged answer promises (checker.mjs). */
  async track(tenant, op, call, expect) {
    const store = { op, attempts: [] };
    const data = await this.#context.run(store, call);
    const acknowledged = store.attempts.findLast((a) => a.status >= 200 && a.status < 300);
    if (acknowledged && expect) {
      acknowledged.expect = expect(data);
      this.#file.write(
        `${JSON.stringify({ expectFor: acknowledged.seq, tenantId: tenant.id, ...acknowledged.expect })}\n`,
      );
    }
    return data;
  }

  #write(entry, requestBody, responseBody) {
    entry.seq = this.entries.length;
    this.entries.push(entry);
    let body;
    try {
      body = responseBody === undefined ? undefined : JSON.parse(responseBody);
    } catch {
      body = responseBody;
    }
    const { ids: _ids, ...line } = entry;
    this.#file.write(`${JSON.stringify({ ...line, requestBody, responseBody: body })}\n`);
  }

  close() {
    return new Promise((done) => this.#file.end(done));
  }
}
