import { introspectWorkflow } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { JobPlan } from "../src/jobs/lifecycle";
import { exportPart, importChunk } from "../src/jobs/steps";
import { QUIET_FOR_MS, wakeStrandedJobs } from "../src/jobs/wake-stranded";
import {
  createLocation,
  createProduct,
  type TestTenant,
  tenantWithWarehouse,
  unique,
} from "./support/builders";
import { tenantDatabase } from "./support/database";
import { call } from "./support/http";
import { catalog as catalogOf, jobResult, startJob, upload, waitForJob } from "./support/jobs";

// A job killed mid-way: a step's first attempt writes its chunk and then dies before the engine hears of it (its
// work is done here, by the test, while the engine sees that attempt fail); the engine retries the step, and the
// job ends with every row applied exactly once. The Workflow and R2 run for real in workerd.

let tenant: TestTenant;
let warehouseId: string;
beforeAll(async () => {
  ({ tenant, warehouseId } = await tenantWithWarehouse());
});

const catalog = (count: number) => catalogOf(tenant, warehouseId, count);

describe("a job killed mid-way resumes", () => {
  it("an import's chunk written before its step died is not applied again", async () => {
    const { skus, locationCode, locationId } = await catalog(2500);
    const csv = ["sku,locationCode,quantity", ...skus.map((sku) => `${sku},${locationCode},2`)].join("\n");
    const uploadId = await upload(tenant.admin, csv);
    await using introspector = await introspectWorkflow(env.JOBS);
    // The second chunk's first attempt dies; the engine retries it after its delay.
    await introspector.modifyAll(async (m) => {
      await m.mockStepError({ name: "chunk 1" }, new Error("isolate went away"), 1);
    });
    const job = await startJob(tenant.admin, { type: "stock_import", uploadId });
    const [instance] = await introspector.get();
    if (!instance) throw new Error("no Workflow instance");
    const started = (await instance.waitForStepResult({ name: "start" })) as JobPlan;
    if (started.kind !== "import") throw new Error("not an import");
    // ...having written its chunk before it died: the same step's work, committed.
    const chunk = started.plan.chunks[1];
    if (!chunk) throw new Error("no chunk 1");
    await importChunk(env, tenant.id, job.id, started.plan, chunk);
    await instance.waitForStatus("complete");
    const done = await waitForJob(tenant.admin, job.id);
    expect(done).toMatchObject({ status: "succeeded", total: 2500, processed: 2500, failed: 0 });
    const db = await tenantDatabase(tenant.id);
    const row = await db
      .prepare(
        `select count(*) as levels, sum(on_hand) as units,
          (select count(*) from stock_movements where tenant_id = ? and location_id = ?) as movements
         from stock_levels where tenant_id = ? and location_id = ?`,
      )
      .bind(tenant.id, locationId, tenant.id, locationId)
      .first<{ levels: number; units: number; movements: number }>();
    expect(row).toEqual({ levels: 2500, units: 5000, movements: 2500 });
  });

  it("an export's part stored before its step died is in the file once", async () => {
    const prefix = `X-${unique()}`;
    for (const half of [0, 3000]) {
      const imported = await call("POST", "/products/import", {
        headers: tenant.admin,
        body: Array.from({ length: 3000 }, (_, i) => ({ sku: `${prefix}-${half + i}`, name: "Exported" })),
      });
      expect(imported.status).toBe(200);
    }
    await using introspector = await introspectWorkflow(env.JOBS);
    await introspector.modifyAll(async (m) => {
      await m.mockStepError({ name: "part 1" }, new Error("isolate went away"), 1);
    });
    const job = await startJob(tenant.admin, { type: "products_export" });
    const [instance] = await introspector.get();
    if (!instance) throw new Error("no Workflow instance");
    const first = (await instance.waitForStepResult({ name: "part 0" })) as { next: number };
    await exportPart(env, tenant.id, job.id, 1, first.next);
    await instance.waitForStatus("complete");
    await waitForJob(tenant.admin, job.id);
    const { text } = await jobResult(tenant.admin, job.id);
    const skus = text
      .split("\r\n")
      .slice(1, -1)
      .map((line) => line.split(",")[0] as string)
      .filter((sku) => sku.startsWith(prefix));
    expect(skus.length).toBe(6000);
    expect(new Set(skus).size).toBe(6000);
  });
});

describe("the cron wakes a running job that has gone quiet", () => {
  // Under `wrangler dev` a server killed mid-job leaves its instance asleep (bench/jobs-restart.mjs shows it
  // woken). Here: which jobs the sweep takes for stranded, and that an event to an instance is harmless.
  it("wakes a running job with no chunk for the quiet time, and leaves a progressing or finished one alone", async () => {
    const quiet = await startJob(tenant.admin, { type: "products_export" });
    const progressing = await startJob(tenant.admin, { type: "products_export" });
    const finished = await startJob(tenant.admin, { type: "products_export" });
    for (const job of [quiet, progressing, finished]) await waitForJob(tenant.admin, job.id);
    const now = new Date();
    const long = new Date(now.getTime() - QUIET_FOR_MS - 60_000).toISOString();
    const db = await tenantDatabase(tenant.id);
    // As the rows stand when a server died: running, started long ago; the second wrote a chunk a moment ago.
    await db.batch([
      db
        .prepare("update jobs set status = 'running', started_at = ?, finished_at = null where id in (?, ?)")
        .bind(long, quiet.id, progressing.id),
      db.prepare("update job_chunks set created_at = ? where job_id = ?").bind(long, quiet.id),
      db
        .prepare("update job_chunks set created_at = ? where job_id = ?")
        .bind(now.toISOString(), progressing.id),
    ]);
    expect(await wakeStrandedJobs(env, now)).toBe(1);
    // A minute later the quiet job is still quiet (nothing runs it here: its instance has finished) and is
    // woken again; the progressing one is not yet quiet.
    expect(await wakeStrandedJobs(env, new Date(now.getTime() + 60_000))).toBe(1);
  });
});

describe("an export is one snapshot", () => {
  it("rows changed, added and removed while it runs are in the file as they were when it started", async () => {
    const location = await createLocation(tenant, warehouseId);
    const product = await createProduct(tenant, { sku: `SNAP-${unique()}` });
    const adjust = (quantity: number) =>
      call("POST", "/inventory/adjustments", {
        headers: tenant.admin,
        body: { productId: product.id, locationId: location.id, quantity, reason: "count" },
      });
    expect((await adjust(10)).status).toBe(201);
    await using introspector = await introspectWorkflow(env.JOBS);
    await introspector.modifyAll(async (m) => {
      await m.mockStepError({ name: "part 0" }, new Error("slow"), 1);
    });
    const job = await startJob(tenant.admin, { type: "stock_export" });
    const [instance] = await introspector.get();
    if (!instance) throw new Error("no Workflow instance");
    await instance.waitForStepResult({ name: "start" });
    // While the export waits to write its first part: the level changes, a new one appears.
    expect((await adjust(-4)).status).toBe(201);
    const other = await createProduct(tenant, { sku: `SNAP-${unique()}` });
    expect(
      (
        await call("POST", "/inventory/adjustments", {
          headers: tenant.admin,
          body: { productId: other.id, locationId: location.id, quantity: 3, reason: "count" },
        })
      ).status,
    ).toBe(201);
    await instance.waitForStatus("complete");
    const done = await waitForJob(tenant.admin, job.id);
    const { text, response } = await jobResult(tenant.admin, job.id);
    expect(response.headers.get("content-disposition")).toContain(`seq-${done.asOfSeq}`);
    const lines = text.split("\r\n").filter((line) => line.includes(location.code as string));
    expect(lines).toEqual([`${product.sku},${(await warehouseCode()) ?? ""},${location.code},,10,0,10`]);
  });
});

async function warehouseCode() {
  const res = await call("GET", `/warehouses/${warehouseId}`, { headers: tenant.admin });
  return (res.body.data as { code: string }).code;
}
