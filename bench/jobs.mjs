// Jobs and bulk stock writes (issue #31), measured under `wrangler dev` with its real Workflows and R2:
//   1. one 1,000-line POST /inventory/adjustments/batch against 1,000 single adjustments of as many products;
//   2. a 100,000-row stock import job (rows/s, peak resident memory of the server's workerd while it runs), over
//      products seeded with SQL, against the same rows sent to the same-work anchor (bench/anchor) in chunks of
//      1,000, one after another as the job's steps run (issue #49: goal >= 0.5 of the anchor's rows/s);
//   3. a movements export job over 1,000,000 ledger rows (the rows seeded with SQL straight into the local D1,
//      the server stopped meanwhile: the export is measured, not the write path).
// Run: npm run bench -- jobs   (or: node bench/jobs.mjs). JOBS_ROWS and JOBS_LEDGER change the sizes.
import { spawnSync } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  loadAverage,
  onShard,
  productId,
  productsSql,
  sku,
  startJob,
  tenantClient,
  uploadCsv,
  waitForJob,
  workerdKb,
} from "./jobs-lib.mjs";
import { createTenant, startAnchor, startApi } from "./lib.mjs";

const PORT = 8960;
const STATE = join(tmpdir(), "jobs-bench-state");
const ROWS = Number(process.env.JOBS_ROWS ?? 100_000);
const LEDGER = Number(process.env.JOBS_LEDGER ?? 1_000_000);
const BATCH_LINES = 1_000;
const ROWS_PER_CHUNK = 1_000; // src/jobs/import-plan.ts
const SINGLE_CONNECTIONS = 10;
const START = Date.parse("2026-10-01T00:00:00.000Z");

const quote = (value) => `'${String(value).replaceAll("'", "''")}'`;

/**
 * Runs a job to its end, sampling the server's memory and how fast it answers meanwhile; returns seconds, memory
 * before and at peak (kB), the answer times, the job.
 */
async function timedJob(api, tenant, group, body) {
  const client = tenantClient(api, tenant.key);
  const baseKb = workerdKb(group);
  let peakKb = baseKb;
  const started = performance.now();
  const { id, answeredMs } = await startJob(client, body);
  const polls = [];
  const job = await waitForJob(client, id, {
    sample: () => (peakKb = Math.max(peakKb, workerdKb(group))),
    answered: (ms) => polls.push(ms),
  });
  const seconds = (performance.now() - started) / 1000;
  if (job.status !== "succeeded") throw new Error(`job ${id} ${job.status}: ${JSON.stringify(job)}`);
  polls.sort((a, b) => a - b);
  // How the server answered while the job ran: POST /jobs, then each GET /jobs/{id} poll.
  const answers = {
    postMs: Math.round(answeredMs() ?? Number.NaN),
    pollP50Ms: Math.round(polls[Math.floor(polls.length / 2)] ?? Number.NaN),
    pollMaxMs: Math.round(polls.at(-1) ?? Number.NaN),
  };
  return { seconds, baseKb, peakKb, answers, job };
}

/** `count` ledger rows over the imported products at one location, one second apart from START. */
function ledgerSql(tenantId, locationId, warehouseId, count) {
  return `with recursive n(i) as (select 0 union all select i + 1 from n where i + 1 < ${count})
    insert into stock_movements (id, tenant_id, product_id, location_id, warehouse_id, delta, on_hand_after, reason,
      actor_type, created_at)
    select printf('b0000000-5555-4000-8000-%012d', i), ${quote(tenantId)}, p.id, ${quote(locationId)},
      ${quote(warehouseId)}, 1, 1, 'received', 'system', strftime('%Y-%m-%dT%H:%M:%fZ', ${START / 1000} + i, 'unixepoch')
    from n join products p on p.id = printf('b0000000-3333-4000-8000-%012d', i % ${ROWS});`;
}

const commit = spawnSync("git", ["rev-parse", "--short", "HEAD"], { encoding: "utf8" }).stdout.trim();
console.log(`# jobs bench: commit ${commit}, load average at start ${loadAverage()}`);

const results = [];

/** Prints a job's line as soon as it is measured (the table below repeats them all). */
function measured(name, result) {
  results.push([name, result]);
  console.log(`${name}: ${JSON.stringify({ ...result, job: undefined, processed: result.job?.processed })}`);
}

let api = await startApi({ port: PORT, persistTo: STATE, fresh: true });
const tenant = await createTenant(api.api);
const { ok, request } = tenantClient(api.api, tenant.key);
const warehouse = await ok("POST", "/warehouses", { code: "WH-1", name: "Bench" });
const location = await ok("POST", "/locations", {
  warehouseId: warehouse.id,
  code: "A-1",
  name: "A-1",
  type: "bin",
});
api.stop();
// The catalogue is seeded with SQL: a product import's 100,000 product.created events would keep the server
// busy dispatching them while the later phases are measured.
await new Promise((resolve) => setTimeout(resolve, 1000));
onShard(api.persistTo, tenant, productsSql(tenant.id, ROWS));
api = await startApi({ port: PORT, persistTo: STATE });
try {
  // 1. One batch of 1,000 lines against the same 1,000 lines as single adjustments (distinct SKUs).
  const line = (n) => ({ sku: sku(n), locationCode: "A-1", quantity: 1, reason: "bench" });
  const batchStarted = performance.now();
  const batch = await request("POST", "/inventory/adjustments/batch", {
    lines: Array.from({ length: BATCH_LINES }, (_, n) => line(n)),
  });
  const batchSeconds = (performance.now() - batchStarted) / 1000;
  if (batch.status >= 300) throw new Error(`batch: ${batch.status} ${JSON.stringify(batch.body)}`);
  const ids = Array.from({ length: BATCH_LINES }, (_, n) => productId(BATCH_LINES + n));
  let next = 0;
  const singlesStarted = performance.now();
  await Promise.all(
    Array.from({ length: SINGLE_CONNECTIONS }, async () => {
      while (next < ids.length) {
        const res = await request("POST", "/inventory/adjustments", {
          productId: ids[next++],
          locationId: location.id,
          quantity: 1,
          reason: "bench",
        });
        if (res.status !== 201) throw new Error(`single: ${res.status} ${JSON.stringify(res.body)}`);
      }
    }),
  );
  const singlesSeconds = (performance.now() - singlesStarted) / 1000;
  measured("batch", { batchSeconds, singlesSeconds, singles: ids.length });

  // 2. The stock import.
  const stock = [
    "sku,locationCode,quantity",
    ...Array.from({ length: ROWS }, (_, n) => `${sku(n)},A-1,${(n % 50) + 1}`),
  ];
  const stockImport = await timedJob(api.api, tenant, api.group, {
    type: "stock_import",
    uploadId: await uploadCsv(api.api, tenant.key, `${stock.join("\n")}\n`),
    options: { reason: "bench" },
  });
  measured(`stock_import, ${ROWS} rows`, stockImport);
} finally {
  api.stop();
}

// 2b. The same rows through the same-work anchor: its tenant, the same SKUs, a running job, chunk after chunk.
const anchor = await startAnchor({ port: PORT + 1 });
try {
  const post = async (path, body, headers = {}) => {
    const response = await fetch(`${anchor.url}${path}`, {
      method: "POST",
      headers,
      body: JSON.stringify(body),
    });
    const json = await response.json();
    if (response.status !== 201)
      throw new Error(`anchor ${path}: ${response.status} ${JSON.stringify(json)}`);
    return json;
  };
  const key = `wms_test_anchor${crypto.randomUUID().replaceAll("-", "")}`;
  const { tenant: anchorTenant } = await post("/seed", { key });
  const { jobId } = await post("/seed-import", { tenant: anchorTenant, count: ROWS });
  const baseKb = workerdKb(anchor.group);
  let peakKb = baseKb;
  let written = 0;
  const started = performance.now();
  for (let chunk = 0; chunk * ROWS_PER_CHUNK < ROWS; chunk++) {
    const rows = Array.from({ length: Math.min(ROWS_PER_CHUNK, ROWS - chunk * ROWS_PER_CHUNK) }, (_, i) => {
      const n = chunk * ROWS_PER_CHUNK + i;
      return { sku: sku(n), locationCode: "A-1", quantity: (n % 50) + 1, reason: "bench" };
    });
    written += (await post("/import-chunk", { jobId, chunk, rows }, { "x-api-key": key })).data.written;
    peakKb = Math.max(peakKb, workerdKb(anchor.group));
  }
  const seconds = (performance.now() - started) / 1000;
  if (written !== ROWS) throw new Error(`anchor wrote ${written} of ${ROWS} rows`);
  measured(`same-work anchor, ${ROWS} rows in chunks of ${ROWS_PER_CHUNK}`, {
    seconds,
    baseKb,
    peakKb,
    answers: { postMs: Number.NaN, pollP50Ms: Number.NaN, pollMaxMs: Number.NaN },
    job: { processed: written },
  });
} finally {
  anchor.stop();
}

// 3. The movements export over LEDGER seeded rows.
await new Promise((resolve) => setTimeout(resolve, 1000));
const seedStarted = performance.now();
onShard(api.persistTo, tenant, ledgerSql(tenant.id, location.id, warehouse.id, LEDGER));
const seedSeconds = (performance.now() - seedStarted) / 1000;
api = await startApi({ port: PORT, persistTo: STATE });
try {
  const exported = await timedJob(api.api, tenant, api.group, {
    type: "movements_export",
    options: {
      from: new Date(START).toISOString(),
      to: new Date(START + LEDGER * 1000).toISOString(),
    },
  });
  measured(`movements_export, ${LEDGER} seeded rows (seeded in ${seedSeconds.toFixed(0)} s)`, exported);
} finally {
  api.stop();
}

console.log(
  `\n| job | rows | seconds | rows/s | workerd RSS before / peak MB | POST /jobs; polls p50 / max ms |`,
);
console.log("|---|---|---|---|---|---|");
for (const [name, r] of results) {
  if (name === "batch") continue;
  const rows = r.job.processed;
  console.log(
    `| ${name} | ${rows} | ${r.seconds.toFixed(1)} | ${(rows / r.seconds).toFixed(0)} | ${(r.baseKb / 1024).toFixed(0)} / ${(r.peakKb / 1024).toFixed(0)} | ${r.answers.postMs}; ${r.answers.pollP50Ms} / ${r.answers.pollMaxMs} |`,
  );
}
const rowsPerSecond = (name) => {
  const r = results.find(([n]) => n.startsWith(name))?.[1];
  return r ? r.job.processed / r.seconds : Number.NaN;
};
console.log(
  `\nstock import against its same-work anchor: ${(rowsPerSecond("stock_import") / rowsPerSecond("same-work anchor")).toFixed(2)} of the anchor's rows/s (goal >= 0.5)`,
);
const batch = results.find(([name]) => name === "batch")?.[1];
console.log(
  `\n1,000-line batch: ${batch.batchSeconds.toFixed(2)} s; the same ${batch.singles} lines as single adjustments (${SINGLE_CONNECTIONS} connections): ${batch.singlesSeconds.toFixed(2)} s; ratio ${(batch.singlesSeconds / batch.batchSeconds).toFixed(1)}x`,
);
console.log(`load average at end ${loadAverage()}`);
