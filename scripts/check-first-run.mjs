// CI's run of the README's first command: `npm run dev` on a fresh state, as a new user meets it (npm run check:first-run).
//   1. It must print its banner, with no stack trace and no refused demo step in its output.
//   2. The demo tenant must hold what the README says, read through the API with the credentials the banner printed:
//      the counts of today's plan (scripts/demo/plan.mjs) and, level by level, the stock its model leaves.
//   3. A long import job must not hold the server: `POST /jobs` answers while the job runs, other requests are served
//      meanwhile, and the job can be cancelled (docs/decisions/jobs.md). It runs in a tenant of its own.
//   4. Stopped by Ctrl-C (SIGINT), `npm run dev` must exit and leave no process behind.
// A fresh state is a new --persist-to folder and a free port (extra arguments the README documents), so the check
// also runs on a machine where a server of the developer's already listens on :8787.
// `--jobs-only` skips the demo data and its checks (2.): a quicker look at the jobs (3.) and the stop (4.).
import { spawn, spawnSync } from "node:child_process";
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { demoPlan } from "./demo/plan.mjs";
import { freePort } from "./free-port.mjs";

const root = join(import.meta.dirname, "..");
const state = mkdtempSync(join(tmpdir(), "wms-first-run-"));
const logFile = join(state, "npm-run-dev.log");
const port = await freePort();
const origin = `http://127.0.0.1:${port}`;
const base = `${origin}/api/v1`;
// The development value (.dev.vars.example), as the browser tests and benchmarks use it.
const PLATFORM_TOKEN = "dev-only-platform-admin-token";
const jobsOnly = process.argv.includes("--jobs-only");
const started = Date.now();
const since = () => `${Math.round((Date.now() - started) / 1000)} s`;
const failures = [];
const check = (ok, what) => {
  console.log(`${ok ? "ok  " : "FAIL"} ${what}`);
  if (!ok) failures.push(what);
};

const log = createWriteStream(logFile);
const dev = spawn(
  "npm",
  [
    "run",
    "dev",
    "--",
    "--port",
    String(port),
    "--ip",
    "127.0.0.1",
    "--inspector-port",
    String(await freePort()),
    "--persist-to",
    join(state, "state"),
  ],
  {
    cwd: root,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, CI: "true", ...(jobsOnly && { WMS_DEMO_DATA: "skip" }) },
  },
);
dev.stdout.pipe(log);
dev.stderr.pipe(log);
let exited = null;
dev.on("exit", (code, signal) => {
  exited = { code, signal };
});
const output = () => readFileSync(logFile, "utf8");

/** Stops `npm run dev` as a person does (Ctrl-C) and waits for it; true when it exited in time. */
async function stop() {
  if (exited) return true;
  try {
    process.kill(-dev.pid, "SIGINT");
  } catch {}
  for (const deadline = Date.now() + 60_000; Date.now() < deadline && !exited; )
    await new Promise((resolve) => setTimeout(resolve, 200));
  return exited !== null;
}

/** Processes still running from this run's state folder (the server would name it in its arguments). */
function leftBehind() {
  const ps = spawnSync("ps", ["-eo", "pid=,args="], { encoding: "utf8" }).stdout;
  return ps.split("\n").filter((line) => line.includes(state) && !line.includes(" ps "));
}

try {
  // 1. The banner, within 15 minutes (migrations, the web app's build and the demo data on a loaded 2-core machine).
  const banner =
    /Demo tenant "[^"]+" \([^)]+\) is ready:\n\s+tenant id\s+(\S+)\n\s+owner\s+(\S+) \/ (\S+)\n\s+admin key\s+(\S+)/;
  let match = null;
  for (const deadline = Date.now() + 900_000; !match; ) {
    match = banner.exec(output());
    if (match) break;
    if (exited)
      throw new Error(
        `npm run dev exited (${exited.signal ?? exited.code}) before its banner; see ${logFile}`,
      );
    if (Date.now() > deadline) throw new Error(`no banner within 15 minutes; see ${logFile}`);
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  console.log(`npm run dev printed its banner after ${since()}`);
  const text = output();
  const stackLines = text.split("\n").filter((line) => /^\s+at .+(:\d+:\d+\)?|\(native\))$/.test(line));
  check(
    stackLines.length === 0,
    `no stack trace in the output${stackLines.length ? `: ${stackLines[0].trim()}` : ""}`,
  );
  const refused = text
    .split("\n")
    .filter((line) => line.startsWith("[demo]") && !line.includes("was filled"));
  check(refused.length === 0, `no demo step refused${refused.length ? `: ${refused.join(" | ")}` : ""}`);
  const filled = /\[demo\] the demo tenant's month up to (\d{4}-\d{2}-\d{2}) was filled/.exec(text);
  if (!jobsOnly) check(filled !== null, "the demo tenant was filled");
  if (filled)
    await checkDemoTenant(filled[1], {
      tenantId: match[1],
      email: match[2],
      password: match[3],
      apiKey: match[4],
    });

  // 3. Jobs keep the server serving.
  await checkJobsLetTheServerServe();
} catch (error) {
  check(false, error.message);
} finally {
  // 4. Ctrl-C ends everything.
  const stopped = await stop();
  check(stopped, "npm run dev exited on Ctrl-C");
  if (!stopped)
    try {
      process.kill(-dev.pid, "SIGKILL");
    } catch {}
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const orphans = leftBehind();
  check(orphans.length === 0, `no process left behind${orphans.length ? `: ${orphans.join(" | ")}` : ""}`);
}
if (failures.length > 0) {
  console.log(`\nThe first run failed (${failures.length}); npm run dev's output is in ${logFile}`);
  process.exit(1);
}
rmSync(state, { recursive: true, force: true });
console.log(`\nThe first run works (${since()})`);

/** JSON requests with a credential; waits out 429s as the API says. */
function apiWith(headers) {
  return async (method, path, body) => {
    for (;;) {
      const response = await fetch(`${base}${path}`, {
        method,
        headers: { ...headers, ...(body !== undefined && { "content-type": "application/json" }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (response.status === 429) {
        await new Promise((resolve) =>
          setTimeout(resolve, Number(response.headers.get("retry-after") ?? 5) * 1000),
        );
        continue;
      }
      const envelope = await response.json();
      if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${envelope.message}`);
      return envelope.data;
    }
  };
}

/** 2. What the README promises, through the API, against the plan of the day the filler ran. */
async function checkDemoTenant(today, credentials) {
  const plan = demoPlan(today);
  const { expected } = plan;
  const api = apiWith({ "x-api-key": credentials.apiKey });
  const login = await apiWith({})("POST", "/auth/login", {
    email: credentials.email,
    password: credentials.password,
  });
  check(typeof login.token === "string", `the printed owner ${credentials.email} signs in`);
  const total = async (path) =>
    (await api("GET", `${path}${path.includes("?") ? "&" : "?"}pageSize=1`)).totalCount;

  check(
    (await total("/products")) === expected.products,
    `${expected.products} products (stocked, the 3PL's, kits)`,
  );
  const kit = (await api("GET", "/products?pageSize=100&search=SET-")).items.filter((p) => p.type === "kit");
  check(kit.length === 2 && kit.every((p) => p.components?.length > 0), "2 kits with their components");
  const cased = (await api("GET", "/products?pageSize=100&sort=sku")).items.filter(
    (p) => p.packagings?.length > 0,
  );
  check(cased.length > 0, `products with packagings (${cased.length} on the first page)`);
  check((await total("/warehouses")) === expected.warehouses, "2 warehouses");
  const bins = (await api("GET", "/locations?type=bin&pageSize=100")).items;
  check(
    bins.length >= 30 && bins.every((b) => b.pickSequence !== null),
    `${bins.length} bins with pick sequences`,
  );
  const locations = (await api("GET", "/locations?pageSize=100&search=QUARANTINE")).items;
  check(
    locations.some((l) => l.code === "QUARANTINE" && l.sellable === false),
    "a quarantine location (not sellable)",
  );
  for (const [type, byStatus] of [
    ["sales", expected.salesByStatus],
    ["purchase", expected.purchaseByStatus],
  ])
    for (const [status, count] of Object.entries(byStatus))
      if (count > 0)
        check(
          (await total(`/orders?type=${type}&status=${status}`)) === count,
          `${count} ${type} orders ${status}`,
        );
  check((await total("/pick-lists")) === expected.pickLists, `${expected.pickLists} pick lists`);
  check((await total("/shipments")) === expected.shipments, `${expected.shipments} shipments`);
  const labelled = (await api("GET", "/shipments?status=dispatched&pageSize=100")).items.filter((s) =>
    s.packages.every((p) => p.labelFormat !== null),
  );
  check(labelled.length === expected.labelled, `${expected.labelled} shipments dispatched with labels`);
  check((await total("/returns?status=closed")) === expected.returns, "a return, received and closed");
  const [merchant] = (await api("GET", "/merchants?pageSize=1")).items;
  check(merchant?.code === "ACME", "the 3PL's merchant ACME");
  if (merchant) {
    check((await total(`/billing/rate-cards?merchantId=${merchant.id}`)) === 1, "its rate card");
    const charges = await api(
      "GET",
      `/billing/charges?merchantId=${merchant.id}&from=${today}&to=${today}&pageSize=100`,
    );
    check(charges.items.length > 0, `its charges of today (${charges.items.length})`);
    check(
      (await total(`/billing/invoices?merchantId=${merchant.id}&status=issued`)) === expected.invoices,
      "its invoice",
    );
  }
  check((await total("/inventory/holds?status=active")) === expected.holds, "a hold");
  check((await total("/inventory/counts?status=open")) === expected.counts, "a count in progress");
  check((await total("/lots?expired=false")) > 0, "lots with expiry dates");
  check((await total("/jobs?status=succeeded")) === expected.jobs, "a job that succeeded");
  const [webhook] = (await api("GET", "/webhooks?pageSize=1")).items;
  check(webhook !== undefined, "a webhook");
  if (webhook) {
    let delivered = 0;
    for (const deadline = Date.now() + 120_000; delivered === 0 && Date.now() < deadline; ) {
      delivered = await total(`/webhooks/${webhook.id}/deliveries?status=succeeded`);
      if (delivered === 0) await new Promise((resolve) => setTimeout(resolve, 3000));
    }
    check(delivered > 0, `the webhook's deliveries to the local receiver (${delivered} so far)`);
  }

  // The chart of stock movements per day: every day of the history the plan wrote something on.
  const from = `${plan.sections.find((s) => s.day)?.day}T00:00:00.000Z`;
  const report = await api(
    "GET",
    `/reports/stock-movements?from=${from}&to=${today}T23:59:59.999Z&pageSize=1`,
  );
  const days = new Set(report.totals.byDay.map((d) => d.day));
  const missing = expected.movementDays.filter((day) => !days.has(day));
  check(
    missing.length === 0,
    `movements on each of the ${expected.movementDays.length} history days that moved stock${missing.length ? ` (none on ${missing.join(", ")})` : ""}`,
  );

  // Every stock level, unit for unit, as the plan's model has it.
  const warehouses = new Map((await api("GET", "/warehouses?pageSize=100")).items.map((w) => [w.id, w.code]));
  const levels = new Map();
  for (let page = 1; ; page++) {
    const { items, totalCount } = await api("GET", `/inventory/stock?pageSize=100&page=${page}`);
    for (const level of items) {
      const key = `${level.sku}@${warehouses.get(level.warehouseId)}/${level.locationCode}`;
      levels.set(key, (levels.get(key) ?? 0) + level.onHand);
    }
    if (page * 100 >= totalCount) break;
  }
  for (const [key, units] of levels) if (units === 0) levels.delete(key);
  const model = plan.model.levels();
  const differences = [...new Set([...levels.keys(), ...model.keys()])].filter(
    (key) => levels.get(key) !== model.get(key),
  );
  check(
    differences.length === 0,
    `${model.size} stock levels as the plan's model has them${
      differences.length
        ? `; differ: ${differences
            .slice(0, 5)
            .map((k) => `${k} API ${levels.get(k)} model ${model.get(k)}`)
            .join(", ")}`
        : ""
    }`,
  );
}

/** 3. A long import in a tenant of its own: answered at once, the server serving meanwhile, cancelled. */
async function checkJobsLetTheServerServe() {
  const platform = apiWith({ authorization: `Bearer ${PLATFORM_TOKEN}` });
  const stamp = Date.now().toString(36);
  const created = await platform("POST", "/platform/tenants", {
    name: `First-run jobs ${stamp}`,
    plan: "enterprise",
    owner: { email: `jobs-${stamp}@first-run.example`, password: "first-run-password-1", name: "Jobs" },
  });
  const key = created.apiKey.key;
  const api = apiWith({ "x-api-key": key });
  // 50 chunks of 1,000 rows: minutes of work on this machine, so the job is surely running while it is watched.
  let csv = "sku,name\n";
  for (let n = 1; n <= 50_000; n++) csv += `JOB-${String(n).padStart(6, "0")},Imported product ${n}\n`;
  const bytes = new TextEncoder().encode(csv);
  const upload = await fetch(`${base}/uploads`, {
    method: "POST",
    headers: { "x-api-key": key, "content-type": "text/csv", "content-length": String(bytes.byteLength) },
    body: bytes,
  }).then((r) => r.json());
  const posted = performance.now();
  const job = await api("POST", "/jobs", { type: "product_import", uploadId: upload.data.id });
  const postMs = Math.round(performance.now() - posted);
  const afterPost = await api("GET", `/jobs/${job.id}`);
  check(
    afterPost.status === "queued" || afterPost.status === "running",
    `POST /jobs answered while its job runs (in ${postMs} ms; the job was ${afterPost.status}, ` +
      `${afterPost.processed} of ${afterPost.total} rows)`,
  );
  // Other requests are served while chunks are written: each answer is followed by the job still running.
  let served = 0;
  let slowestMs = 0;
  let watched = afterPost;
  for (const deadline = Date.now() + 300_000; Date.now() < deadline && watched.status !== "succeeded"; ) {
    const asked = performance.now();
    const [health, products] = await Promise.all([
      fetch(`${base}/health`),
      api("GET", "/products?pageSize=1"),
    ]);
    slowestMs = Math.max(slowestMs, Math.round(performance.now() - asked));
    watched = await api("GET", `/jobs/${job.id}`);
    if (health.ok && products && watched.status === "running" && watched.processed > 0) served++;
    if (served >= 3) break;
  }
  check(
    served >= 3,
    `the server served other requests while the job wrote its rows (${watched.processed} of ${watched.total}; ` +
      `the slowest answer ${slowestMs} ms, load average ${loadavg()[0].toFixed(1)})`,
  );
  const cancelled = await api("POST", `/jobs/${job.id}/cancel`);
  check(cancelled.status === "cancelled", `the running job was cancelled (${cancelled.status})`);
  const productsThen = (await api("GET", "/products?pageSize=1")).totalCount;
  await new Promise((resolve) => setTimeout(resolve, 5000));
  const productsLater = (await api("GET", "/products?pageSize=1")).totalCount;
  const jobLater = await api("GET", `/jobs/${job.id}`);
  check(
    jobLater.status === "cancelled" && productsLater === productsThen && productsLater < 50_000,
    `nothing was written after the cancel (${productsThen} then ${productsLater} products, the job ${jobLater.status})`,
  );
}
