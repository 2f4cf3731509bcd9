// Time from a committed change to a verified delivery at a local receiver, under `wrangler dev`
// (real D1, real local Queue, real consumer). Goal (issue #35): p95 <= 250 ms.
// Two changes, measured one after the other: a `POST /products` (its product.created event fanned out and
// attempted from the request's waitUntil) and a `POST /webhooks/{id}/test` (an event and its delivery committed
// in one batch, attempted the same way); the receiver verifies every signature with the official
// standardwebhooks library.
// Run: npm run bench -- webhooks   (or: node bench/webhooks.mjs)
import { createServer } from "node:http";
import { Webhook } from "standardwebhooks";
import { createTenant, startApi } from "./lib.mjs";

const SAMPLES = 40;
const RECEIVER_PORT = 8855;

// Arrival times by key (the event id, or the resource id in the payload): a delivery that leaves from the
// request's waitUntil can arrive before the client has read the response naming it.
const arrivals = new Map();
const waiting = new Map();
const arrived = (key, at) => {
  if (key === undefined) return;
  arrivals.set(key, at);
  waiting.get(key)?.(at);
};
let verifier;
const receiver = createServer((request, response) => {
  let body = "";
  request.on("data", (chunk) => {
    body += chunk;
  });
  request.on("end", () => {
    const payload = verifier.verify(body, request.headers); // throws on a bad signature
    const at = performance.now();
    arrived(request.headers["webhook-id"], at);
    arrived(payload.data?.id, at);
    response.end("ok");
  });
});
await new Promise((resolve) => receiver.listen(RECEIVER_PORT, "127.0.0.1", resolve));

const api = await startApi({ port: 8850, persistTo: "/tmp/bench-webhooks-state" });
try {
  const tenant = await createTenant(api.api);
  const headers = { "x-api-key": tenant.key, "content-type": "application/json" };
  const created = await fetch(`${api.api}/webhooks`, {
    method: "POST",
    headers,
    body: JSON.stringify({ url: `http://localhost:${RECEIVER_PORT}/hook`, events: ["*"] }),
  });
  const { data } = await created.json();
  verifier = new Webhook(data.secret);

  /** Milliseconds from sending `change` to its verified arrival, SAMPLES times; `change` answers the key it arrives under. */
  async function measure(change) {
    const latencies = [];
    for (let i = 0; i < SAMPLES; i++) {
      const started = performance.now();
      const key = await change(i);
      let timer;
      const arrivedAt =
        arrivals.get(key) ??
        (await new Promise((resolve, reject) => {
          waiting.set(key, resolve);
          timer = setTimeout(() => reject(new Error(`delivery ${i} did not arrive within 30 s`)), 30_000);
        }));
      clearTimeout(timer);
      waiting.delete(key);
      latencies.push(arrivedAt - started);
    }
    latencies.sort((a, b) => a - b);
    const at = (p) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))].toFixed(0);
    return `| ${SAMPLES} | ${at(0.5)} | ${at(0.95)} | ${latencies.at(-1).toFixed(0)} |`;
  }
  const post = async (path, body) => {
    const response = await fetch(`${api.api}${path}`, {
      method: "POST",
      headers,
      body: JSON.stringify(body),
    });
    return (await response.json()).data;
  };
  const product = await measure(
    async (i) =>
      (await post("/products", { sku: `BENCH-HOOK-${Date.now()}-${i}`, name: "Hook", price: 1 })).id,
  );
  const test = await measure(async () => (await post(`/webhooks/${data.id}/test`)).eventId);

  console.log("\n## webhooks: committed change -> verified delivery (wrangler dev, local queue)");
  console.log("| change | samples | p50 ms | p95 ms | max ms |");
  console.log("|---|---|---|---|---|");
  console.log(`| POST /products (product.created) ${product}`);
  console.log(`| POST /webhooks/{id}/test ${test}`);
} finally {
  api.stop();
  receiver.close();
}
