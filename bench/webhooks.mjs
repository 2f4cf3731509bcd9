// Time from a committed change to a verified delivery at a local receiver, under `wrangler dev`
// (real D1, real local Queue, real consumer). Goal: p95 <= 2 s.
// The change is a `POST /webhooks/{id}/test` (an outbox event and its delivery committed in one batch);
// the receiver verifies every signature with the official standardwebhooks library.
// Run: npm run bench -- webhooks   (or: node bench/webhooks.mjs)
import { createServer } from "node:http";
import { Webhook } from "standardwebhooks";
import { createTenant, startApi } from "./lib.mjs";

const SAMPLES = 40;
const RECEIVER_PORT = 8855;

const arrivals = new Map();
let verifier;
const receiver = createServer((request, response) => {
  let body = "";
  request.on("data", (chunk) => {
    body += chunk;
  });
  request.on("end", () => {
    verifier.verify(body, request.headers); // throws on a bad signature
    arrivals.get(request.headers["webhook-id"])?.(performance.now());
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

  const latencies = [];
  for (let i = 0; i < SAMPLES; i++) {
    const started = performance.now();
    const response = await fetch(`${api.api}/webhooks/${data.id}/test`, { method: "POST", headers });
    const { data: queued } = await response.json();
    const arrived = await new Promise((resolve, reject) => {
      arrivals.set(queued.eventId, resolve);
      setTimeout(() => reject(new Error(`delivery ${i} did not arrive within 30 s`)), 30_000);
    });
    latencies.push(arrived - started);
  }
  latencies.sort((a, b) => a - b);
  const at = (p) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))].toFixed(0);
  console.log("\n## webhooks: committed change -> verified delivery (wrangler dev, local queue)");
  console.log("| samples | p50 ms | p95 ms | max ms |");
  console.log("|---|---|---|---|");
  console.log(`| ${SAMPLES} | ${at(0.5)} | ${at(0.95)} | ${latencies.at(-1).toFixed(0)} |`);
} finally {
  api.stop();
  receiver.close();
}
