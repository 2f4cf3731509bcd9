import { introspectWorkflow } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { createTenant, scopedKey, type TestTenant, tenantWithWarehouse } from "./support/builders";
import { BASE, call, fetchApi } from "./support/http";
import { jobResult, runJob, startJob, upload, waitForJob } from "./support/jobs";

let tenant: TestTenant;
let other: TestTenant;
beforeAll(async () => {
  ({ tenant } = await tenantWithWarehouse());
  other = await createTenant();
});

const sendUpload = (headers: Record<string, string>, body: BodyInit, extra: Record<string, string> = {}) =>
  fetchApi(
    new Request(`${BASE}/uploads`, {
      method: "POST",
      headers: { "content-type": "text/csv", ...headers, ...extra },
      body,
    }),
  );

describe("credentials and scopes", () => {
  it("401 without a credential", async () => {
    expect((await sendUpload({}, "sku\nA", { "content-length": "5" })).status).toBe(401);
    expect((await call("POST", "/jobs", { body: { type: "stock_export" } })).status).toBe(401);
    expect((await call("GET", "/jobs")).status).toBe(401);
    expect((await call("GET", `/jobs/${crypto.randomUUID()}`)).status).toBe(401);
    expect((await call("GET", `/jobs/${crypto.randomUUID()}/result`)).status).toBe(401);
    expect((await call("POST", `/jobs/${crypto.randomUUID()}/cancel`)).status).toBe(401);
  });

  it("403 when the scope of the job's data is missing, and the list shows only what the caller can read", async () => {
    const readInventory = await scopedKey(tenant, ["read:inventory"]);
    const readProducts = await scopedKey(tenant, ["read:products"]);
    // Upload needs a write scope; a stock import needs write:inventory.
    expect((await sendUpload(readInventory, "sku\nA", { "content-length": "5" })).status).toBe(403);
    const writeProducts = await scopedKey(tenant, ["write:products"]);
    const uploadId = await upload(writeProducts, "sku,locationCode,quantity\nA,B,1");
    const refused = await call("POST", "/jobs", {
      headers: writeProducts,
      body: { type: "stock_import", uploadId },
    });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe("A stock_import job needs the write:inventory scope");
    expect(
      (await call("POST", "/jobs", { headers: readProducts, body: { type: "stock_export" } })).status,
    ).toBe(403);
    const stockJob = await runJob(readInventory, { type: "stock_export" });
    expect(stockJob.status).toBe("succeeded");
    expect((await call("GET", `/jobs/${stockJob.id}`, { headers: readProducts })).status).toBe(403);
    expect((await jobResult(readProducts, stockJob.id)).response.status).toBe(403);
    expect((await call("POST", `/jobs/${stockJob.id}/cancel`, { headers: readProducts })).status).toBe(403);
    const listed = await call("GET", "/jobs?pageSize=100", { headers: readProducts });
    expect(listed.status).toBe(200);
    const ids = (listed.body.data as { items: { id: string }[] }).items.map((j) => j.id);
    expect(ids).not.toContain(stockJob.id);
    const mine = await call("GET", "/jobs?type=stock_export", { headers: readInventory });
    expect((mine.body.data as { items: { id: string }[] }).items.map((j) => j.id)).toContain(stockJob.id);
  });

  it("404 for another tenant's job or upload", async () => {
    const theirs = await runJob(other.admin, { type: "products_export" });
    expect((await call("GET", `/jobs/${theirs.id}`, { headers: tenant.admin })).status).toBe(404);
    expect((await jobResult(tenant.admin, theirs.id)).response.status).toBe(404);
    expect((await call("POST", `/jobs/${theirs.id}/cancel`, { headers: tenant.admin })).status).toBe(404);
    const theirUpload = await upload(other.admin, "sku,name\nA,B");
    const refused = await call("POST", "/jobs", {
      headers: tenant.admin,
      body: { type: "product_import", uploadId: theirUpload },
    });
    expect(refused.status).toBe(404);
    expect(refused.body.errors).toEqual([`uploadId: upload ${theirUpload} not found`]);
  });
});

describe("uploads are not bodies read whole", () => {
  it("takes a file past the 1 MiB body limit, holding a control character, whole", async () => {
    const csv = `sku,name\n${"A,B\u0001\n".repeat(220_000)}`;
    expect(csv.length).toBeGreaterThan(1024 * 1024);
    expect(await upload(tenant.admin, csv)).toEqual(expect.any(String));
  });
});

describe("bad input", () => {
  it("an upload over 100 MiB is 413 before a byte is stored; a wrong type 415; no length 400", async () => {
    const tooBig = await sendUpload(tenant.admin, new ReadableStream({ start: (c) => c.close() }), {
      "content-length": String(100 * 1024 * 1024 + 1),
    });
    expect(tooBig.status).toBe(413);
    const json = await sendUpload(tenant.admin, "[]", {
      "content-type": "application/json",
      "content-length": "2",
    });
    expect(json.status).toBe(415);
    const empty = await sendUpload(tenant.admin, "", { "content-length": "0" });
    expect(empty.status).toBe(400);
  });

  it("an unknown type, a missing or unknown upload, an option of another type, a bad range: 400/404", async () => {
    const post = (body: unknown) => call("POST", "/jobs", { headers: tenant.admin, body });
    const unknown = await post({ type: "orders_export" });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors?.[0]).toMatch(/^type: must be one of product_import, stock_import/);
    const missing = await post({ type: "stock_import" });
    expect(missing.status).toBe(400);
    expect(missing.body.errors).toEqual(["uploadId: required for stock_import"]);
    expect((await post({ type: "stock_import", uploadId: crypto.randomUUID() })).status).toBe(404);
    const stray = await post({ type: "stock_export", options: { reason: "x" } });
    expect(stray.body.errors).toEqual(["options.reason: not an option of stock_export"]);
    const range = await post({
      type: "movements_export",
      options: { from: "2026-11-02T00:00:00Z", to: "2026-11-01T00:00:00Z" },
    });
    expect(range.body.errors).toEqual(["options.to: must be after from"]);
  });

  it("a file without rows fails the job, saying why; its result is a 409", async () => {
    const uploadId = await upload(tenant.admin, "sku,locationCode,quantity\n");
    const job = await runJob(tenant.admin, { type: "stock_import", uploadId });
    expect(job).toMatchObject({ status: "failed", error: "The file has no rows to import", resultUrl: null });
    expect((await jobResult(tenant.admin, job.id)).response.status).toBe(409);
  });
});

describe("cancel", () => {
  it("stops a running import between chunks: nothing after the answer is written, and a second cancel is 409", async () => {
    const rows = Array.from({ length: 1500 }, (_, i) => `NOPE-${i},BIN,1`);
    const uploadId = await upload(tenant.admin, ["sku,locationCode,quantity", ...rows].join("\n"));
    await using introspector = await introspectWorkflow(env.JOBS);
    await introspector.modifyAll(async (m) => {
      await m.mockStepError({ name: "chunk 1" }, new Error("held"), 1);
    });
    const job = await startJob(tenant.admin, { type: "stock_import", uploadId });
    const [instance] = await introspector.get();
    if (!instance) throw new Error("no Workflow instance");
    await instance.waitForStepResult({ name: "chunk 0" });
    const cancelled = await call("POST", `/jobs/${job.id}/cancel`, { headers: tenant.admin });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data).toMatchObject({ status: "cancelled", processed: 1000 });
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const after = await waitForJob(tenant.admin, job.id);
    expect(after).toMatchObject({ status: "cancelled", processed: 1000 });
    expect((await call("POST", `/jobs/${job.id}/cancel`, { headers: tenant.admin })).status).toBe(409);
  });
});
