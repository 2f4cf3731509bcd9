// `npm run soak -- --minutes N --tenants T [--clients C] [--rate R] [--port P] [--no-faults]`: the Worker under
// `wrangler dev`, T tenants of mixed plans driven by C concurrent clients (the official TypeScript client and
// its retry policy) starting R operations a second between them, for N minutes while faults are switched on
// and off, every attempt recorded
// (bench/results/soak-*/history.jsonl), and the invariants checked after each fault and at the end.
// Exits non-zero on any violation; the last line is `soak: R requests, F faults injected, V invariant
// violations, L events lost`. Never part of `npm test`.
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { PLATFORM_TOKEN } from "./lib.mjs";
import { checkInvariants } from "./soak/checker.mjs";
import { History } from "./soak/history.mjs";
import { drainFeed } from "./soak/ops/feed.mjs";
import { operationsFor } from "./soak/ops/index.mjs";
import { weighted } from "./soak/random.mjs";
import { HEALTHY, startReceivers } from "./soak/receivers.mjs";
import { figures, markdown } from "./soak/report.mjs";
import { startServer } from "./soak/server.mjs";
import { readDeliveries, readSnapshot } from "./soak/snapshot.mjs";
import { createTenant, LIMITS } from "./soak/tenants.mjs";

const root = resolve(import.meta.dirname, "..");
/**
 * Operations started per second, all clients together (docs/decisions/soak.md): what the local queue consumer can
 * deliver behind. Locally one consumer invocation runs at a time, and each batch of 100 lasts as long as its
 * slowest delivery (the slow receiver answers after 1-3 s): about 15 webhooks a second were measured. Unpaced on
 * a quiet machine, the clients commit events ten times faster and a 10-minute run ends with tens of thousands
 * still queued, which the check could not tell from lost ones.
 */
const DEFAULT_RATE = 6;
const { values: args } = parseArgs({
  options: {
    minutes: { type: "string", default: "10" },
    tenants: { type: "string", default: "50" },
    clients: { type: "string" },
    rate: { type: "string", default: String(DEFAULT_RATE) },
    port: { type: "string", default: "8790" },
    "no-faults": { type: "boolean", default: false },
  },
});
const minutes = Number(args.minutes);
const tenantCount = Number(args.tenants);
const clientCount = Number(args.clients ?? tenantCount);
const rate = Number(args.rate);
const port = Number(args.port);
const faultsOn = !args["no-faults"];
const sleep = (ms) => new Promise((done) => setTimeout(done, ms));
const log = (line) => console.log(`[soak ${new Date().toISOString().slice(11, 19)}] ${line}`);

const outDir = join(root, "bench", "results", `soak-${new Date().toISOString().replace(/[:.]/g, "-")}`);
mkdirSync(outDir, { recursive: true });
const stateDir = join(root, ".wrangler", `soak-state-${port}`);

// The official TypeScript client, compiled where Node resolves its dependencies from the repository.
const clientDir = join(root, ".wrangler", "soak", "client");
const built = spawnSync("npx", ["tsc", "-p", "clients/typescript", "--outDir", clientDir], {
  cwd: root,
  stdio: "inherit",
});
if (built.status !== 0) throw new Error("could not build the TypeScript client");
const { WarehouseClient } = await import(join(clientDir, "index.js"));

const history = new History(join(outDir, "history.jsonl"));
const { receivers, received, dropped, close: closeReceivers } = await startReceivers(port + 1);
// How long this process's own work (the invariant checks) held its event loop: the receivers run in a thread of
// their own so that it never holds them.
const loopDelay = monitorEventLoopDelay({ resolution: 20 });
loopDelay.enable();
log(`starting wrangler dev on ${port} (state ${stateDir})`);
const server = await startServer({
  port,
  inspectorPort: port + 9,
  stateDir,
  logFile: join(outDir, "wrangler.log"),
  faults: faultsOn,
});
const cronTimer = setInterval(() => server.cron(), 60_000);

log(`creating ${tenantCount} tenants`);
const tenants = [];
for (let i = 0; i < tenantCount; i += 10) {
  const batch = Array.from({ length: Math.min(10, tenantCount - i) }, (_, k) =>
    createTenant({
      i: i + k,
      api: server.url,
      history,
      WarehouseClient,
      platformToken: PLATFORM_TOKEN,
      receivers,
    }),
  );
  tenants.push(...(await Promise.all(batch)));
}
const limits = Object.fromEntries(tenants.filter((t) => LIMITS[t.plan]).map((t) => [t.id, LIMITS[t.plan]]));
const healthyUrls = tenants.flatMap((t) =>
  t.subscriptions.filter((s) => HEALTHY.includes(s.name)).map((s) => s.url),
);

// The workload: each client works for one tenant, one operation after another, from start to stop; the
// faults are switched on and off underneath it.
const outcomes = new Map();
let running = true;
let nextStart = Date.now();
/** Waits for this client's turn: operations start `rate` a second in all, however many clients wait. */
async function turn() {
  const at = Math.max(Date.now(), nextStart);
  nextStart = at + 1000 / rate;
  await sleep(at - Date.now());
}
async function client(t) {
  const operations = operationsFor(t);
  for (await turn(); running; await turn()) {
    const op = weighted(operations);
    let outcome = "ok";
    try {
      await op.run(t);
    } catch (error) {
      outcome = error.code ?? error.name ?? "error";
    }
    if (!running) break;
    const key = `${op.name} ${outcome}`;
    outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
  }
}

// Faults not visible in a response header, counted here.
const extraFaults = {};
const checks = [];
/**
 * How long the deliveries may make no progress before the wait ends: longer than the sweep's grace for an event
 * handed off but never fanned out (UNPROCESSED_MS, 3 minutes, src/webhooks/dispatch-sweep.ts) plus a cron
 * minute, so events whose queue message died with `wrangler dev` are handed off again before they count as lost.
 */
const STALL_MS = 4 * 60_000 + 30_000;
/**
 * The invariant check as of `cutoff` (now), run under clean load. Deliveries of the events committed before the
 * cutoff are waited for while they still arrive (the cron sweep re-dispatches what was never handed over or never
 * fanned out and re-queues overdue deliveries, retries come due, the local queue works off its backlog), up to
 * `settleMs`. After a fault an event not yet delivered is only in flight; at the end, after the load stopped and the
 * deliveries settled (`STALL_MS` without progress, or the deadline), it is lost.
 */
async function checkpoint(name, settleMs, final = false) {
  const cutoff = new Date().toISOString();
  const after = `${history.entries.length} requests`;
  const feeds = final ? await drainFeeds() : feedsRead();
  const deadline = Date.now() + settleMs;
  let result;
  let progressAt = Date.now();
  let lost = Number.POSITIVE_INFINITY;
  let snapshot;
  let outstanding = Number.POSITIVE_INFINITY;
  for (;;) {
    await server.cron();
    await sleep(5_000);
    snapshot = readSnapshot(stateDir);
    result = checkInvariants({
      history: history.entries,
      snapshot,
      received,
      healthyUrls,
      limits,
      feeds,
      cutoff,
      settled: final,
    });
    // Progress: fewer events missing at the receivers, or fewer events and deliveries still on their way.
    const nowOutstanding = snapshot.unprocessedEvents + snapshot.pendingDeliveries;
    if (result.eventsLost < lost || nowOutstanding < outstanding) progressAt = Date.now();
    [lost, outstanding] = [Math.min(lost, result.eventsLost), Math.min(outstanding, nowOutstanding)];
    if (result.eventsLost === 0 || Date.now() - progressAt > STALL_MS || Date.now() > deadline) break;
  }
  const check = {
    name,
    after,
    violations: result.violations.length,
    eventsLost: result.eventsLost,
    duplicates: result.duplicates,
  };
  checks.push(check);
  log(
    `check after ${name}: ${check.violations} violations, ${check.eventsLost} events ${final ? "lost" : "in flight"}, ${check.duplicates} duplicates (${snapshot.unprocessedEvents} events not fanned out, ${snapshot.pendingDeliveries} deliveries pending)`,
  );
  for (const v of result.violations.slice(0, 10)) log(`  ${v.invariant}: ${v.detail}`);
  return result;
}

/**
 * A delivery still pending whose next attempt falls after the run (the schedule waits 5 s, 5 min, then 30 min) is
 * late, not lost: its retry is brought forward through the API, as an operator would, and reported with the error
 * of its last attempt. A delivery that ran out of attempts, or an event with no delivery at all, stays lost.
 */
async function bringLateRetriesForward(missing) {
  if (missing.length === 0) return [];
  const now = new Date().toISOString();
  const due = readDeliveries(stateDir, missing).filter(
    (d) => d.status === "pending" && d.nextAttemptAt > now,
  );
  history.stopped = false;
  for (const d of due) {
    log(
      `late: event ${d.eventId} to subscription ${d.subscriptionId}, ${d.attempts} attempts (last: ${d.lastError}), next at ${d.nextAttemptAt}: brought forward`,
    );
    await tenants
      .find((t) => t.id === d.tenantId)
      .client.webhooks.retryDelivery(d.subscriptionId, d.deliveryId);
  }
  history.stopped = true;
  return due;
}

/** What each tenant's events-feed reader got so far. */
const feedsRead = () => Object.fromEntries(tenants.map((t) => [t.id, { ids: t.feed.ids }]));

/**
 * The final drain of every feed (the load has stopped): each reader must reach at least the last event
 * stored before the drain began.
 */
async function drainFeeds() {
  const lastSeq = new Map();
  for (const event of readSnapshot(stateDir).events) {
    lastSeq.set(event.tenantId, Math.max(lastSeq.get(event.tenantId) ?? 0, event.seq ?? 0));
  }
  history.stopped = false;
  for (let i = 0; i < tenants.length; i += 10) {
    await Promise.all(tenants.slice(i, i + 10).map((t) => drainFeed(t)));
  }
  history.stopped = true;
  return Object.fromEntries(
    tenants.map((t) => [t.id, { ids: t.feed.ids, mustReach: lastSeq.get(t.id) ?? 0 }]),
  );
}

// The schedule: slices of the run, each with its fault switched on, then the check.
const slice = (minutes * 60_000) / (faultsOn ? 7 : 1);
const PHASES = faultsOn
  ? [
      { name: "no faults", start() {} },
      {
        name: "D1 failing 5% of batches and 2% of statements",
        start: () => (history.faultHeader = "d1-batch=0.05, d1-statement=0.02"),
      },
      { name: "rate-limit object unreachable", start: () => (history.faultHeader = "limiter") },
      { name: "queue messages twice and out of order", start: () => (history.faultHeader = "queue") },
      {
        name: "wrangler dev restarted",
        async start() {
          await sleep(slice / 3);
          log("restarting wrangler dev");
          extraFaults.restart = (extraFaults.restart ?? 0) + 1;
          await server.restart();
          log("wrangler dev is back");
        },
      },
      { name: "receiver accepts, then times out", start: () => (receivers.stalling.stall = true) },
      { name: "no faults (tail)", start() {} },
    ]
  : [{ name: "no faults", start() {} }];

const clients = Array.from({ length: clientCount }, (_, n) => client(tenants[n % tenants.length]));
for (const phase of PHASES) {
  log(`phase: ${phase.name}`);
  const before = history.entries.length;
  const started = Date.now();
  await phase.start();
  await sleep(Math.max(0, slice - (Date.now() - started)));
  if (history.faultHeader === "queue") {
    // A duplicated, reordered hand-off happens after the response: count the acknowledged writes it carried.
    extraFaults.queue = history.entries
      .slice(before)
      .filter((e) => e.fault === "queue" && e.method !== "GET" && e.status >= 200 && e.status < 300).length;
  }
  history.faultHeader = null;
  receivers.stalling.stall = false;
  // The check runs under clean load; the next fault waits for it, so each check sees one fault's aftermath.
  if (phase.name !== PHASES.at(-1).name) await checkpoint(phase.name, 45_000);
}
log("stopping the load");
running = false;
history.stopped = true;
await Promise.all(clients);
extraFaults["receiver timeout"] = receivers.stalling.stalls;
let final = await checkpoint("end", 600_000, true);
const late = await bringLateRetriesForward(final.missing);
if (late.length > 0) final = await checkpoint("end, late retries brought forward", 180_000, true);
clearInterval(cronTimer);
await server.stop();
await closeReceivers();
await history.close();

const f = figures(history.entries, extraFaults);
const settings = `${minutes} min of load, ${tenantCount} tenants (${Object.entries(
  Object.groupBy(tenants, (t) => t.plan),
)
  .map(([plan, ts]) => `${ts.length} ${plan}`)
  .join(
    ", ",
  )}), ${clientCount} concurrent clients starting ${rate} operations a second, faults ${faultsOn ? "on" : "off"}`;
// The plan admissions: how often the limiter refused, and each plan's closest approach to its limit.
const refusals = history.entries.filter((e) => e.status === 429);
const peakByPlan = {};
for (const t of tenants) {
  const peak = final.admissionPeaks[t.id];
  if (peak !== undefined) peakByPlan[t.plan] = Math.max(peakByPlan[t.plan] ?? 0, peak);
}
const admissions = `429 answered ${refusals.length} times to ${new Set(refusals.map((e) => e.tenantId)).size} tenants; most admissions in one 60 s window: ${Object.entries(
  peakByPlan,
)
  .map(([plan, peak]) => `${plan} ${peak} (plan allows ${LIMITS[plan]})`)
  .join(", ")}; under-admission (a 429 while fewer than the plan were admitted in its 60 s): ${
  final.underAdmissions.length
} of ${refusals.length} refusals${
  final.underAdmissions.length
    ? ` (fewest admitted: ${Math.min(...final.underAdmissions.map((u) => u.admittedAtMost))}; at ${[
        ...new Set(final.underAdmissions.map((u) => new Date(u.sentAt).toISOString().slice(11, 19))),
      ]
        .slice(0, 5)
        .join(", ")})`
    : ""
}`;
const droppedBy = Object.groupBy(dropped, (d) => `${d.name}: ${d.reason}`);
const deliveries = `${received.length} requests at the receivers; connections that ended before an answer: ${
  Object.entries(droppedBy)
    .map(([key, list]) => `${key} ${list.length}`)
    .join(", ") || "none"
}; late deliveries brought forward: ${late.length}${
  late.length ? ` (last errors: ${[...new Set(late.map((d) => d.lastError))].join("; ")})` : ""
}; longest stall of the soak's own event loop: ${Math.round(loopDelay.max / 1e6)} ms`;
const summary = markdown({
  deliveries,
  figures: f,
  admissions,
  checks,
  settings,
  violations: final.violations.length,
  eventsLost: final.eventsLost,
  duplicates: final.duplicates,
});
writeFileSync(
  join(outDir, "summary.md"),
  `${summary}\n\nOutcomes by operation:\n${[...outcomes]
    .sort()
    .map(([k, n]) => `- ${k}: ${n}`)
    .join("\n")}\n`,
);
writeFileSync(join(outDir, "violations.json"), JSON.stringify(final.violations, null, 2));
console.log(summary);
console.log(
  `\nOutcomes by operation: ${[...outcomes]
    .sort()
    .map(([k, n]) => `${k} ${n}`)
    .join("; ")}`,
);
console.log(`History, summary and violations: ${outDir}`);
console.log(
  `soak: ${f.requests} requests, ${f.faultCount} faults injected, ${final.violations.length} invariant violations, ${final.eventsLost} events lost`,
);
process.exit(final.violations.length > 0 ? 1 : 0);
