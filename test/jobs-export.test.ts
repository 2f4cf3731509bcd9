import { beforeAll, describe, expect, it } from "vitest";
import {
  createLocation,
  createProduct,
  scopedKey,
  seedManyMovements,
  type TestTenant,
  tenantWithWarehouse,
  unique,
} from "./support/builders";
import { outboxEvents } from "./support/database";
import { call } from "./support/http";
import { jobResult, runJob, upload } from "./support/jobs";

let tenant: TestTenant;
let warehouseId: string;
beforeAll(async () => {
  ({ tenant, warehouseId } = await tenantWithWarehouse());
});

const rowsOf = (text: string) => text.split("\r\n").slice(1, -1);

describe("movements_export", () => {
  it("the ledger in the range, oldest first, in the report's columns, across parts", async () => {
    const location = await createLocation(tenant, warehouseId);
    const product = await createProduct(tenant);
    // 6,000 rows from 2026-11-01T00:00:00Z, one a second; the range keeps 5,500 of them (two parts).
    await seedManyMovements(tenant, product.id, { id: location.id, warehouseId }, 6000);
    const job = await runJob(tenant.admin, {
      type: "movements_export",
      options: { from: "2026-11-01T00:08:20Z", to: "2026-11-01T01:40:00Z" },
    });
    expect(job).toMatchObject({ status: "succeeded", total: 5500, processed: 5500 });
    const { text } = await jobResult(tenant.admin, job.id);
    expect(text.split("\r\n")[0]).toBe(
      "createdAt,sku,productName,warehouseCode,locationCode,delta,onHandAfter,reason,referenceType,referenceId,notes,actorType,actorId,id,productId,locationId,warehouseId",
    );
    const rows = rowsOf(text);
    expect(rows.length).toBe(5500);
    expect(rows[0]?.startsWith("2026-11-01T00:08:20.000Z,")).toBe(true);
    expect(rows.at(-1)?.startsWith("2026-11-01T01:39:59.000Z,")).toBe(true);
    expect(new Set(rows.map((r) => r.split(",")[13])).size).toBe(5500);
  });
});

describe("events_export", () => {
  it("holds the event types its creator can read, up to its snapshot's seq", async () => {
    const readProducts = await scopedKey(tenant, ["read:products"]);
    const product = await createProduct(tenant, { sku: `EV-${unique()}` });
    const job = await runJob(readProducts, { type: "events_export" });
    expect(job.status).toBe("succeeded");
    expect((job.options as { types: string[] }).types.every((t) => t.startsWith("product."))).toBe(true);
    const rows = rowsOf((await jobResult(readProducts, job.id)).text);
    expect(rows.some((row) => row.includes(product.id))).toBe(true);
    expect(rows.every((row) => row.split(",")[2]?.startsWith("product."))).toBe(true);
    const seqs = rows.map((row) => Number(row.split(",")[0]));
    expect(Math.max(...seqs)).toBeLessThanOrEqual(job.asOfSeq as number);
    // Someone who cannot read every family the export holds does not see it.
    const readOrders = await scopedKey(tenant, ["read:orders"]);
    expect((await call("GET", `/jobs/${job.id}`, { headers: readOrders })).status).toBe(403);
  });
});

describe("products_export", () => {
  it("imports back as it is: quotes, commas and line breaks survive, no row fails", async () => {
    const sku = `RT-${unique()}`;
    await createProduct(tenant, { sku, name: 'Mug, "large"', description: "Line one\nline two", price: 4.5 });
    const exported = await runJob(tenant.admin, { type: "products_export" });
    const { text, response } = await jobResult(tenant.admin, exported.id);
    expect(response.headers.get("content-disposition")).toMatch(/products_export-as-of-.*-seq-\d+\.csv/);
    expect(text).toContain(`${sku},"Mug, ""large""",`);
    const uploadId = await upload(tenant.admin, text);
    const reimport = await runJob(tenant.admin, { type: "product_import", uploadId });
    expect(reimport).toMatchObject({ status: "succeeded", failed: 0, processed: exported.total });
    const product = await call("GET", `/products?search=${sku}`, { headers: tenant.admin });
    const [found] = (product.body.data as { items: { updatedAt: string; createdAt: string; name: string }[] })
      .items;
    expect(found?.name).toBe('Mug, "large"');
  });

  it("round-trips byte for byte: leading = + - @ ', quotes, commas, separators, line breaks, unicode", async () => {
    // Two fresh tenants: the second's catalogue is the first's export, imported.
    const [{ tenant: from }, { tenant: to }] = [await tenantWithWarehouse(), await tenantWithWarehouse()];
    const awkward = [
      { sku: "=FX3", name: '=HYPERLINK("https://evil.example","click")', category: "@risk" },
      { sku: "+1-555", name: "+plus", unit: "-each", price: 1.25 },
      { sku: "-5", name: "-minus", description: "=1+1\n+2\n-3\n@4" },
      { sku: "@home", name: "@sum(A1)", barcode: "0012345678905" },
      { sku: "'quoted", name: "'=already guarded", description: "''two" },
      { sku: "a,=b", name: "Mug;=HYPERLINK(x);+y", category: "a\t=tabbed" },
      { sku: "TAB\t-1", name: "tab\t@inside, then ;'apostrophe", cost: 0.0001 },
      { sku: 'QUOTE"1', name: '"Quoted" and, commas', description: 'He said ""hi""\r\nthen left' },
      { sku: "UNI-é", name: "Café 😀 ملف 東京", description: "\u05e9\u05dc\u05d5\u05dd \u200f(v2)" },
      { sku: "PLAIN-1", name: "Plain", reorderPoint: 5, status: "Inactive", tracking: "lot" },
    ];
    const made = await call("POST", "/products/batch", { headers: from.admin, body: { products: awkward } });
    expect(made.body.data.failed, JSON.stringify(made.body.data.results)).toBe(0);

    const first = await runJob(from.admin, { type: "products_export" });
    const exported = (await jobResult(from.admin, first.id)).text;
    const imported = await runJob(to.admin, {
      type: "product_import",
      uploadId: await upload(to.admin, exported),
    });
    expect(imported).toMatchObject({ status: "succeeded", processed: awkward.length, failed: 0 });
    const again = await runJob(to.admin, { type: "products_export" });
    expect((await jobResult(to.admin, again.id)).text).toBe(exported);

    // Imported back into the tenant it came from, the file changes nothing: no duplicate, no update.
    const back = await runJob(from.admin, {
      type: "product_import",
      uploadId: await upload(from.admin, exported),
    });
    expect(back).toMatchObject({ status: "succeeded", processed: awkward.length, failed: 0 });
    const listed = await call("GET", "/products?pageSize=100", { headers: from.admin });
    expect(listed.body.data.items.map((p) => p.sku).sort()).toEqual(awkward.map((p) => p.sku).sort());
    expect(new Set((await outboxEvents(from, /^product\./)).map((event) => event.type))).toEqual(
      new Set(["product.created"]),
    );
    // The export still guards a spreadsheet: no cell, nor a piece after a separator, starts a formula.
    expect(exported).toContain(`'=FX3,"'=HYPERLINK(""https://evil.example"",""click"")",,'@risk,`);
  });
});
