// A proxy in front of `wrangler dev`, one per language under test, that lets a test see and break the wire:
// - it logs every request (method, path, Idempotency-Key, Consistency-Token sent) with its status and request id;
// - `POST /__harness/drop {match}` arms it to forward the next request whose body contains `match`, let the
//   server answer, then cut the connection before the answer reaches the client (a dropped connection after
//   the server committed: the client must retry with the same Idempotency-Key);
// - `POST /__harness/consistency-token {value}` adds that header to the next answer;
// - `POST /__harness/fault {match, status, retryAfter, times, hang}` makes it the local test server of the time and
//   retry tests: the next `times` requests whose `METHOD /path` contains `match` are answered `status` (with
//   `Retry-After: retryAfter` when given) without reaching the API, or, with `hang`, never answered; `GET
//   /__harness/fault?match=` counts the requests that matched (faulted or forwarded after the faults ran out);
// - `POST /__harness/webhooks` records a webhook delivery (raw body and headers); `GET ?type=&wait=` returns those
//   of that event type, waiting up to `wait` seconds for one.
import { createServer, request as httpRequest } from "node:http";

function readBody(stream) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    stream.on("data", (chunk) => chunks.push(chunk));
    stream.on("end", () => resolve(Buffer.concat(chunks)));
    stream.on("error", reject);
  });
}

function typeOf(body) {
  try {
    return JSON.parse(body).type;
  } catch {
    return undefined;
  }
}

function json(res, status, body) {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

function forward(upstream, req, body) {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      `${upstream}${req.url}`,
      { method: req.method, headers: { ...req.headers, host: new URL(upstream).host } },
      async (answer) =>
        resolve({ status: answer.statusCode, headers: answer.headers, body: await readBody(answer) }),
    );
    outgoing.on("error", reject);
    outgoing.end(body);
  });
}

/** Starts a proxy on `port` forwarding to `upstream` (an origin); resolves to `{ url, close }`. */
export function startProxy({ port, upstream }) {
  const log = [];
  const drops = new Map(); // match -> { armed, requests: [{ idempotencyKey, dropped, replayed }] }
  const deliveries = [];
  const waiters = new Set();
  let consistencyToken = null;
  const faults = new Map(); // match -> { status, retryAfter, hang, left, seen }

  async function control(req, res, body) {
    const url = new URL(req.url, "http://proxy");
    const route = `${req.method} ${url.pathname}`;
    const input = body.length > 0 && req.headers["content-type"]?.includes("json") ? JSON.parse(body) : {};
    if (route === "GET /__harness/log") return json(res, 200, log);
    if (route === "DELETE /__harness/log") {
      log.length = 0;
      return json(res, 200, []);
    }
    if (route === "POST /__harness/drop") {
      drops.set(input.match, { armed: true, requests: [] });
      return json(res, 200, { armed: input.match });
    }
    if (route === "GET /__harness/drop")
      return json(res, 200, drops.get(url.searchParams.get("match")) ?? null);
    if (route === "POST /__harness/fault") {
      const { match, status = 500, retryAfter, times = 1, hang = false } = input;
      faults.set(match, { status, retryAfter, hang, left: times, seen: 0 });
      return json(res, 200, { armed: match });
    }
    if (route === "GET /__harness/fault") {
      const fault = faults.get(url.searchParams.get("match"));
      return json(res, 200, fault ? { seen: fault.seen, left: fault.left } : null);
    }
    if (route === "POST /__harness/consistency-token") {
      consistencyToken = input.value;
      return json(res, 200, { armed: consistencyToken });
    }
    if (route === "POST /__harness/webhooks") {
      deliveries.push({ headers: req.headers, body: body.toString("utf8") });
      for (const wake of waiters) wake();
      res.writeHead(204);
      return res.end();
    }
    if (route === "GET /__harness/webhooks") {
      const type = url.searchParams.get("type");
      const matching = () => deliveries.filter((d) => type === null || typeOf(d.body) === type);
      const deadline = Date.now() + Number(url.searchParams.get("wait") ?? 0) * 1000;
      while (matching().length === 0 && Date.now() < deadline) {
        await new Promise((resolve) => {
          const wake = () => {
            waiters.delete(wake);
            resolve();
          };
          waiters.add(wake);
          setTimeout(wake, Math.max(0, deadline - Date.now()));
        });
      }
      return json(res, 200, matching());
    }
    return json(res, 404, { error: `no harness route ${route}` });
  }

  const server = createServer(async (req, res) => {
    try {
      const body = await readBody(req);
      if (req.url.startsWith("/__harness/")) return await control(req, res, body);
      const fault = [...faults].find(([match]) => `${req.method} ${req.url}`.includes(match))?.[1];
      if (fault) fault.seen++;
      if (fault && fault.left > 0) {
        fault.left--;
        log.push({
          method: req.method,
          path: req.url,
          userAgent: req.headers["user-agent"] ?? null,
          faulted: true,
        });
        if (fault.hang) return; // the client's deadline or cancellation has to end the call
        res.writeHead(fault.status, {
          "content-type": "application/json",
          "x-error-code": fault.status === 429 ? "RATE_LIMITED" : "INTERNAL_ERROR",
          "x-request-id": `harness-${fault.seen}`,
          ...(fault.retryAfter === undefined ? {} : { "retry-after": String(fault.retryAfter) }),
        });
        return res.end(
          JSON.stringify({ success: false, data: null, message: `injected ${fault.status}`, errors: null }),
        );
      }
      const answer = await forward(upstream, req, body);
      const text = body.toString("utf8");
      const drop = [...drops].find(([match]) => match && text.includes(match))?.[1];
      const dropped = drop?.armed === true;
      drop?.requests.push({
        idempotencyKey: req.headers["idempotency-key"] ?? null,
        dropped,
        replayed: answer.headers["idempotent-replayed"] === "true",
        status: answer.status,
      });
      log.push({
        method: req.method,
        path: req.url,
        idempotencyKey: req.headers["idempotency-key"] ?? null,
        consistencyToken: req.headers["consistency-token"] ?? null,
        userAgent: req.headers["user-agent"] ?? null,
        status: answer.status,
        requestId: answer.headers["x-request-id"] ?? null,
        dropped,
      });
      if (dropped) {
        drop.armed = false;
        req.socket.destroy();
        return;
      }
      const headers = { ...answer.headers };
      if (consistencyToken !== null) {
        headers["consistency-token"] = consistencyToken;
        consistencyToken = null;
      }
      res.writeHead(answer.status, headers);
      res.end(answer.body);
    } catch (error) {
      json(res, 502, {
        success: false,
        data: null,
        message: `proxy: ${error.message}`,
        errors: [error.message],
      });
    }
  });
  return new Promise((resolve, reject) => {
    server.on("error", reject);
    server.listen(port, "127.0.0.1", () =>
      resolve({
        url: `http://127.0.0.1:${port}`,
        close: () => {
          server.closeAllConnections();
          return new Promise((done) => server.close(done));
        },
      }),
    );
  });
}
