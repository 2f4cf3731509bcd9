// Shared benchmark harness: serves the API and a bare Hono hello Worker under `wrangler dev`
// (same runtime, same machine), loads both with autocannon and reports ratios.
import { spawn, spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { ensureDevVars } from "../scripts/dev-vars.mjs";
import { applyMigrations } from "../scripts/migrate.mjs";
import { waitFor } from "./wait-for.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
// Several checkouts may benchmark on one machine at once: BENCH_PORT_OFFSET shifts every port and
// state directory so their servers never collide.
const PORT_OFFSET = Number(process.env.BENCH_PORT_OFFSET ?? 0);
const shifted = (port) => port + PORT_OFFSET;
const stateDir = (dir) => (PORT_OFFSET ? `${dir}-${PORT_OFFSET}` : dir);
export const PLATFORM_TOKEN = "dev-only-platform-admin-token";

const running = new Set();
function stopAll() {
  for (const child of running) {
    try {
      process.kill(-child.pid, "SIGTERM");
    } catch {}
  }
  running.clear();
}
process.on("exit", stopAll);
process.on("SIGINT", () => process.exit(130));

function serve(args, readyUrl, env = {}) {
  ensureDevVars();
  const child = spawn("npx", ["wrangler", "dev", ...args], {
    cwd: root,
    stdio: ["ignore", "ignore", process.env.BENCH_VERBOSE ? "inherit" : "ignore"],
    detached: true,
    env: { ...process.env, CI: "true", ...env },
  });
  running.add(child);
  const stop = () => {
    running.delete(child);
    try {
      process.kill(-child.pid, "SIGTERM");
    } catch {}
  };
  return waitFor(readyUrl, 90_000).then(() => Object.assign(stop, { group: child.pid }));
}

const CLOCK_TICKS = Number(spawnSync("getconf", ["CLK_TCK"]).stdout.toString().trim() || 100);

/**
 * CPU seconds used so far by every process of a server's process group (`wrangler dev`, its workerd and
 * their children), from /proc: user + system time of each live process and of its children that exited.
 */
export function cpuSecondsOf(group) {
  let ticks = 0;
  for (const pid of readdirSync("/proc")) {
    if (!/^\d+$/.test(pid)) continue;
    let stat;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    } catch {
      continue; // exited meanwhile
    }
    // Fields after the command name (which may hold spaces): state is field 3, pgrp 5, utime 14 ... cstime 17.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (Number(fields[2]) !== group) continue;
    ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
  }
  return ticks / CLOCK_TICKS;
}

/**
 * Serves the API with its own local state (`.wrangler/bench-state`, migrated first) on `port`.
 * `fresh: true` wipes that state first, for benchmarks that need a known data set; `inspectorPort` opens
 * workerd's inspector there (bench/profile.mjs).
 */
export async function startApi({
  port: basePort,
  persistTo: baseDir = ".wrangler/bench-state",
  fresh = false,
  inspectorPort = undefined,
} = {}) {
  const port = shifted(basePort);
  const persistTo = stateDir(baseDir);
  // resolve, not join: an absolute state dir (/tmp/...) must be wiped where wrangler keeps it.
  if (fresh) spawnSync("rm", ["-rf", resolve(root, persistTo)]);
  applyMigrations(["--local", "--persist-to", persistTo]);
  const url = `http://127.0.0.1:${port}`;
  const stop = await serve(
    [
      "--port",
      String(port),
      "--ip",
      "127.0.0.1",
      "--persist-to",
      persistTo,
      "--log-level",
      "error",
      ...(inspectorPort ? ["--inspector-port", String(inspectorPort)] : []),
    ],
    `${url}/api/v1/health`,
  );
  return { url, api: `${url}/api/v1`, persistTo, stop, group: stop.group };
}

/** Serves the bare Hono hello Worker on `port`. */
export async function startHello({ port: basePort }) {
  const port = shifted(basePort);
  const url = `http://127.0.0.1:${port}`;
  const stop = await serve(
    ["-c", "bench/hello/wrangler.toml", "--port", String(port), "--ip", "127.0.0.1", "--log-level", "error"],
    `${url}/hello`,
  );
  return { url: `${url}/hello`, stop, group: stop.group };
}

/**
 * Serves the same-work anchor (bench/anchor/) on `port`, with its own fresh local state migrated like the
 * API's (same database ids, so the same schema, indexes and triggers).
 */
export async function startAnchor({ port: basePort, persistTo: baseDir = "/tmp/bench-anchor-state" }) {
  const port = shifted(basePort);
  const persistTo = stateDir(baseDir);
  spawnSync("rm", ["-rf", resolve(root, persistTo)]);
  applyMigrations(["--local", "--persist-to", persistTo]);
  const url = `http://127.0.0.1:${port}`;
  const stop = await serve(
    [
      "-c",
      "bench/anchor/wrangler.toml",
      "--port",
      String(port),
      "--ip",
      "127.0.0.1",
      "--persist-to",
      persistTo,
      "--log-level",
      "error",
    ],
    `${url}/ready`,
  );
  return { url, stop, group: stop.group };
}

/** Creates a tenant through the platform endpoint (on `shard`, if named); returns its id and admin API key. */
export async function createTenant(api, plan = "enterprise", shard = undefined) {
  const unique = `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
  const response = await fetch(`${api}/platform/tenants`, {
    method: "POST",
    headers: { authorization: `Bearer ${PLATFORM_TOKEN}`, "content-type": "application/json" },
    body: JSON.stringify({
      name: `Bench ${unique}`,
      plan,
      owner: { email: `bench-${unique}@example.com`, password: "bench-password-1", name: "Bench" },
      ...(shard ? { shard } : {}),
    }),
  });
  const body = await response.json();
  if (response.status !== 201) throw new Error(`createTenant: ${response.status} ${JSON.stringify(body)}`);
  return {
    id: body.data.tenant.id,
    // The shard binding holding the tenant's data (SHARD_0, ...), for benchmarks that seed it with SQL.
    shard: body.data.tenant.shard,
    key: body.data.apiKey.key,
    email: body.data.owner.email,
    password: "bench-password-1",
  };
}

/**
 * A tenant's product stocked at one bin, through the API: the `load` target of a +1 adjustment there,
 * and what a benchmark needs to read it back.
 */
export async function adjustmentTarget(api, tenant, skuPrefix) {
  const headers = { "x-api-key": tenant.key, "content-type": "application/json" };
  const post = async (path, body) => {
    const response = await fetch(`${api}${path}`, { method: "POST", headers, body: JSON.stringify(body) });
    const json = await response.json();
    if (response.status !== 201) throw new Error(`${path}: ${response.status} ${JSON.stringify(json)}`);
    return json.data;
  };
  const product = await post("/products", { sku: `${skuPrefix}-${Date.now()}`, name: "Bench SKU" });
  const warehouse = await post("/warehouses", { code: `WH-${Date.now()}`, name: "Bench" });
  const location = await post("/locations", {
    warehouseId: warehouse.id,
    code: "A-1",
    name: "A-1",
    type: "bin",
  });
  const adjust = {
    url: `${api}/inventory/adjustments`,
    method: "POST",
    headers,
    body: JSON.stringify({ productId: product.id, locationId: location.id, quantity: 1, reason: "bench" }),
  };
  return { adjust, headers, productId: product.id };
}

export const DEFAULT_LOAD = { connections: 10, duration: 10 };

/** Loads one URL with autocannon; returns requests/s, latency percentiles and non-2xx count. */
export async function load({
  url,
  method = "GET",
  headers = {},
  body,
  connections,
  duration,
  amount,
  requests,
  overallRate,
}) {
  const result = await autocannon({
    url,
    method,
    headers,
    body,
    requests,
    ...(overallRate ? { overallRate } : {}),
    connections: connections ?? DEFAULT_LOAD.connections,
    ...(amount ? { amount } : { duration: duration ?? DEFAULT_LOAD.duration }),
  });
  return {
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    total: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

/** Prints one line per measured scenario and, for each, its ratio to the baseline. */
export function report(title, rows, baseline) {
  console.log(`\n## ${title}`);
  console.log("| scenario | req/s | p50 ms | p99 ms | non-2xx | ratio to baseline (req/s) |");
  console.log("|---|---|---|---|---|---|");
  for (const [name, r] of Object.entries(rows)) {
    const ratio = baseline ? (r.requestsPerSecond / baseline.requestsPerSecond).toFixed(2) : "-";
    console.log(
      `| ${name} | ${r.requestsPerSecond.toFixed(0)} | ${r.p50} | ${r.p99} | ${r.non2xx} | ${ratio} |`,
    );
  }
}
