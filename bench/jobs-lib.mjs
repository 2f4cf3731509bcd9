// What the job benchmarks share (bench/jobs.mjs, bench/jobs-restart.mjs): a tenant's API client, uploads, waiting
// for a job, the server's memory, and SQL run straight on a tenant's shard in wrangler's local state.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const sku = (n) => `B-${String(n).padStart(6, "0")}`;
export const loadAverage = () => readFileSync("/proc/loadavg", "utf8").trim();

/** Resident memory (kB) of the workerd processes in the server's process group. */
export function workerdKb(group) {
  let kb = 0;
  for (const pid of readdirSync("/proc")) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      if (Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[2]) !== group) continue;
      const status = readFileSync(`/proc/${pid}/status`, "utf8");
      const rss = /VmRSS:\s+(\d+) kB/.exec(status);
      if (rss && /Name:\s+workerd/.test(status)) kb += Number(rss[1]);
    } catch {
      // exited meanwhile
    }
  }
  return kb;
}

/** JSON requests with a tenant's key: `request` answers status and body, `ok` the data or throws. */
export function tenantClient(api, key) {
  const request = async (method, path, body) => {
    const response = await fetch(`${api}${path}`, {
      method,
      headers: { "x-api-key": key, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: await response.json() };
  };
  const ok = async (method, path, body) => {
    const res = await request(method, path, body);
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.data;
  };
  return { request, ok };
}

/** Uploads `text` as CSV; returns the upload id. */
export async function uploadCsv(api, key, text) {
  const bytes = new TextEncoder().encode(text);
  const response = await fetch(`${api}/uploads`, {
    method: "POST",
    headers: { "x-api-key": key, "content-type": "text/csv", "content-length": String(bytes.byteLength) },
    body: bytes,
  });
  const json = await response.json();
  if (response.status !== 201) throw new Error(`upload: ${response.status} ${JSON.stringify(json)}`);
  return json.data.id;
}

/** Polls a job until `done(job)` (default: it ended), calling `sample` each time; returns the job. */
export async function waitForJob(
  client,
  id,
  {
    done = (job) => !["queued", "running"].includes(job.status),
    sample = () => {},
    /** Told how long each GET /jobs/{id} took: whether the server answers while the job runs. */
    answered = () => {},
    timeoutMs = 3_600_000,
  } = {},
) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    sample();
    const asked = performance.now();
    const job = await client.ok("GET", `/jobs/${id}`);
    answered(performance.now() - asked);
    if (done(job)) return job;
    if (Date.now() > deadline) throw new Error(`job ${id} still ${job.status} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** Runs `sql` on the tenant's shard database in wrangler's local state (the server stopped); returns its JSON. */
export function onShard(persistTo, tenant, sql) {
  const dir = mkdtempSync(join(tmpdir(), "jobs-sql-"));
  const file = join(dir, "run.sql");
  writeFileSync(file, sql);
  const run = spawnSync(
    "npx",
    [
      "wrangler",
      "d1",
      "execute",
      tenant.shard,
      "--local",
      "--persist-to",
      persistTo,
      "--file",
      file,
      "--yes",
      "--json",
    ],
    { encoding: "utf8", env: { ...process.env, CI: "true" }, maxBuffer: 64 * 1024 * 1024 },
  );
  rmSync(dir, { recursive: true, force: true });
  if (run.status !== 0) throw new Error(`SQL failed: ${run.stderr}${run.stdout}`);
  return JSON.parse(run.stdout);
}

/** Product n's id, as the seed writes it. */
export const productId = (n) => `b0000000-3333-4000-8000-${String(n).padStart(12, "0")}`;

/** `count` products B-000000... with ids productId(n). */
export function productsSql(tenantId, count) {
  const now = new Date().toISOString();
  return `with recursive n(i) as (select 0 union all select i + 1 from n where i + 1 < ${count})
    insert into products (id, tenant_id, sku, name, created_at, updated_at)
    select printf('b0000000-3333-4000-8000-%012d', i), '${tenantId}', printf('B-%06d', i), 'Bench ' || i,
      '${now}', '${now}' from n;`;
}

/**
 * Starts a job; returns its id as soon as GET /jobs lists it, and how long POST /jobs took to answer (undefined
 * until it has). The answer is not awaited: under `wrangler dev` it was once seen to come only after the job.
 */
export async function startJob(client, body) {
  const before = new Set((await client.ok("GET", "/jobs?pageSize=100")).items.map((job) => job.id));
  const posted = performance.now();
  let answeredMs;
  client
    .request("POST", "/jobs", body)
    .then(() => (answeredMs = performance.now() - posted))
    .catch(() => {});
  for (;;) {
    const [newest] = (await client.ok("GET", "/jobs?pageSize=1")).items;
    if (newest && !before.has(newest.id)) return { id: newest.id, answeredMs: () => answeredMs };
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
