import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { uploadKey } from "../src/files/keys";
import { type TestTenant, tenantWithWarehouse, unique } from "./support/builders";
import { levelsWithLedger, outboxEvents, tenantDatabase } from "./support/database";
import { BASE, call, fetchApi } from "./support/http";
import { catalog as catalogOf, jobResult, runJob, upload } from "./support/jobs";

let tenant: TestTenant;
let warehouseId: string;
beforeAll(async () => {
  ({ tenant, warehouseId } = await tenantWithWarehouse());
});

const catalog = (count: number) => catalogOf(tenant, warehouseId, count);

describe("stock_import", () => {
  it("applies each good row once and lists each bad one with its line", async () => {
    const { skus, locationCode } = await catalog(8);
    const csv = [
      "sku,locationCode,quantity,onHand,reason",
      ...skus.slice(0, 6).map((sku, i) => `${sku},${locationCode},${i + 1},,received`),
      `${skus[6]},${locationCode},,40,`,
      `NOPE-${unique()},${locationCode},3,,received`,
      `${skus[7]},${locationCode},-5,,damaged`,
      `${skus[0]},${locationCode},"not a number",,received`,
    ].join("\r\n");
    const uploadId = await upload(tenant.admin, csv);
    const job = await runJob(tenant.admin, { type: "stock_import", uploadId });
    expect(job).toMatchObject({ status: "succeeded", total: 10, processed: 10, failed: 3 });
    expect(job.errors.map((e) => e.line)).toEqual([9, 10, 11]);
    expect(job.errors[0]?.errors[0]).toMatch(/no product has SKU NOPE-/);
    expect(job.errors[1]?.errors[0]).toMatch(/Insufficient stock/);
    const levels = await levelsWithLedger(tenant);
    for (const level of levels) expect(level.ledger).toBe(level.onHand);
    const { response, text } = await jobResult(tenant.admin, job.id);
    expect(response.status).toBe(200);
    expect(text.split("\r\n")[0]).toBe("line,errors");
    expect(
      text
        .split("\r\n")
        .slice(1, -1)
        .map((l) => l.split(",")[0]),
    ).toEqual(["9", "10", "11"]);
    const events = await outboxEvents(tenant, /^job\./);
    expect(events.at(-1)).toMatchObject({
      type: "job.succeeded",
      payload: { id: job.id, processed: 10, failed: 3 },
    });
  });
});

/** A CSV of `quantity` rows for `skus` at `locationCode`, row i adding i + 1 units. */
const stockCsv = (skus: readonly string[], locationCode: string) =>
  ["sku,locationCode,quantity", ...skus.map((sku, i) => `${sku},${locationCode},${i + 1}`)].join("\n");

/** On hand per SKU at the location (via the API's stock list). */
async function onHandAt(locationId: string) {
  const db = await (await import("./support/database")).tenantDatabase(tenant.id);
  const { results } = await db
    .prepare(
      `select p.sku as sku, s.on_hand as onHand,
        (select count(*) from stock_movements m where m.tenant_id = s.tenant_id and m.product_id = s.product_id
          and m.location_id = s.location_id) as movements
       from stock_levels s join products p on p.tenant_id = s.tenant_id and p.id = s.product_id
       where s.tenant_id = ? and s.location_id = ?`,
    )
    .bind(tenant.id, locationId)
    .all<{ sku: string; onHand: number; movements: number }>();
  return new Map(results.map((r) => [r.sku, r]));
}

describe("stock_import at the chunk boundary", () => {
  for (const count of [10, 1000, 1001]) {
    it(`${count} rows: each applied exactly once, in ${Math.ceil(count / 1000)} chunk(s)`, async () => {
      const { skus, locationCode, locationId } = await catalog(count);
      const uploadId = await upload(tenant.admin, stockCsv(skus, locationCode));
      const job = await runJob(tenant.admin, { type: "stock_import", uploadId });
      expect(job).toMatchObject({
        status: "succeeded",
        total: count,
        processed: count,
        failed: 0,
        errors: [],
      });
      const stock = await onHandAt(locationId);
      expect(stock.size).toBe(count);
      for (const [i, sku] of skus.entries())
        expect(stock.get(sku)).toEqual({ sku, onHand: i + 1, movements: 1 });
      const { text } = await jobResult(tenant.admin, job.id);
      expect(text).toBe("line,errors\r\n");
    });
  }
});

describe("stock_import of NDJSON, sets with compare-and-swap", () => {
  it("sets on hand, refuses a stale expectedOnHand, and names the line of a malformed one", async () => {
    const { skus, locationCode, locationId } = await catalog(3);
    const ndjson = [
      JSON.stringify({ sku: skus[0], locationCode, onHand: 7 }),
      "",
      JSON.stringify({ sku: skus[1], locationCode, onHand: 5, expectedOnHand: 2 }),
      "{not json",
      JSON.stringify({ sku: skus[2], locationCode, quantity: 4, reason: "found" }),
    ].join("\n");
    const uploadId = await upload(tenant.admin, ndjson, "application/x-ndjson");
    const job = await runJob(tenant.admin, { type: "stock_import", uploadId });
    expect(job).toMatchObject({ status: "succeeded", processed: 4, failed: 2 });
    expect(job.errors).toEqual([
      { line: 3, errors: ["expectedOnHand: on hand is 0, not 2; nothing changed"] },
      { line: 4, errors: ["row: malformed JSON"] },
    ]);
    const stock = await onHandAt(locationId);
    expect(stock.get(skus[0] as string)?.onHand).toBe(7);
    expect(stock.get(skus[1] as string)).toBeUndefined();
    expect(stock.get(skus[2] as string)?.onHand).toBe(4);
  });
});

describe("product_import", () => {
  it("creates and updates by SKU, changing only the columns a row names", async () => {
    const sku = `PI-${unique()}`;
    const made = await call("POST", "/products", {
      headers: tenant.admin,
      body: { sku, name: "Old name", description: "kept" },
    });
    expect(made.status).toBe(201);
    const fresh = `PI-${unique()}`;
    const csv = ["sku,name,price", `${sku},New name,12.50`, `${fresh},Fresh,3`, `${fresh}-x,,1`].join("\n");
    const uploadId = await upload(tenant.admin, csv);
    const job = await runJob(tenant.admin, { type: "product_import", uploadId });
    expect(job).toMatchObject({ status: "succeeded", processed: 3, failed: 1 });
    expect(job.errors[0]?.line).toBe(4);
    const updated = await call("GET", `/products/${(made.body.data as { id: string }).id}`, {
      headers: tenant.admin,
    });
    expect(updated.body.data).toMatchObject({ name: "New name", price: 12.5, description: "kept" });
    const events = await outboxEvents(tenant, /^product\./);
    expect(events.filter((e) => (e.payload as { sku: string }).sku === fresh).map((e) => e.type)).toEqual([
      "product.created",
    ]);
  });

  it("refuses a row nested 5,000 deep or holding a lone surrogate with its line, and goes on", async () => {
    const sku = `ND-${unique()}`;
    const depth = 5000;
    const ndjson = [
      JSON.stringify({ sku: `${sku}-1`, name: "First" }),
      `{"sku":"${sku}-deep","name":${"[".repeat(depth)}"x"${"]".repeat(depth)}}`,
      `{"sku":"${sku}-\\ud800","name":"Twin"}`,
      JSON.stringify({ sku: `${sku}-4`, name: "Last" }),
    ].join("\n");
    const uploadId = await upload(tenant.admin, ndjson, "application/x-ndjson");
    const job = await runJob(tenant.admin, { type: "product_import", uploadId });
    expect(job).toMatchObject({ status: "succeeded", processed: 4, failed: 2 });
    expect(job.errors).toEqual([
      { line: 2, errors: [`name${"[0]".repeat(31)}: must not be nested deeper than 32 levels`] },
      { line: 3, errors: ["sku: must not contain an unpaired surrogate (U+D800), which is not a character"] },
    ]);
    const stored = await call("GET", `/products?search=${sku}&pageSize=10`, { headers: tenant.admin });
    expect(stored.body.data.items.map((p) => p.sku).sort()).toEqual([`${sku}-1`, `${sku}-4`]);
  });
});

// The import's CSV reader refuses what it cannot read (issue #44): a row it cannot read is that row's error with its
// line, and the job goes on. A header it cannot read is refused by POST /uploads (test/uploads.test.ts); a file
// stored before that check fails the job at its start, naming the line.
describe("an import of a file it cannot read", () => {
  const fileOf = (...parts: (string | number[])[]) =>
    new Uint8Array(
      parts.flatMap((part) => (typeof part === "string" ? [...new TextEncoder().encode(part)] : part)),
    );
  const uploadBytes = async (bytes: Uint8Array, contentType = "text/csv") => {
    const response = await fetchApi(
      new Request(`${BASE}/uploads`, {
        method: "POST",
        headers: { ...tenant.admin, "content-type": contentType, "content-length": String(bytes.byteLength) },
        body: bytes,
      }),
    );
    return { status: response.status, body: (await response.json()) as { data: { id: string } } };
  };
  const skusLike = async (prefix: string) =>
    (await call("GET", `/products?search=${prefix}&pageSize=100`, { headers: tenant.admin })).body.data.items
      .map((p) => p.sku)
      .sort();

  it("a row with bytes that are not UTF-8, text after a closing quote or too many cells is that row's error", async () => {
    const p = `RB-${unique()}`;
    const file = fileOf(
      `sku,name\n${p}-1,One\n${p}-2,Caf`,
      [0xe9],
      `\n${p}-3,"Mug" large\n${p}-4,Four,extra\n${p}-5,"Five\r\nlines"\n`,
    );
    const uploaded = await uploadBytes(file);
    expect(uploaded.status).toBe(201);
    const job = await runJob(tenant.admin, { type: "product_import", uploadId: uploaded.body.data.id });
    expect(job).toMatchObject({ status: "succeeded", processed: 5, failed: 3 });
    expect(job.errors).toEqual([
      { line: 3, errors: ["row: is not valid UTF-8"] },
      {
        line: 4,
        errors: ['row: text after the closing quote of cell 2 (quote it whole, with "" for a quote)'],
      },
      { line: 5, errors: ["row: 3 cells, but the header names 2 columns"] },
    ]);
    expect(await skusLike(p)).toEqual([`${p}-1`, `${p}-5`]);
  });

  it("an unclosed quote is the error of the row it opens on, naming its line; the rows before it are written", async () => {
    const p = `UQ-${unique()}`;
    const csv = `sku,name\n${p}-1,One\n${p}-2,"Unclosed\n${p}-3,Three\n${p}-4,Four\n`;
    const job = await runJob(tenant.admin, {
      type: "product_import",
      uploadId: await upload(tenant.admin, csv),
    });
    expect(job).toMatchObject({ status: "succeeded", processed: 2, failed: 1 });
    expect(job.errors).toEqual([
      {
        line: 3,
        errors: [
          "row: a quote opened on line 3 is never closed (every line after it was read into one cell)",
        ],
      },
    ]);
    expect(await skusLike(p)).toEqual([`${p}-1`]);
  });

  it("a row longer than 1 MiB is that row's error and is not read; the rows after it are written", async () => {
    const p = `LR-${unique()}`;
    const csv = `sku,name\n${p}-1,One\n${p}-2,"${"y".repeat(1_100_000)}"\n${p}-3,Three\n`;
    const job = await runJob(tenant.admin, {
      type: "product_import",
      uploadId: await upload(tenant.admin, csv),
    });
    expect(job).toMatchObject({ status: "succeeded", processed: 3, failed: 1 });
    expect(job.errors).toEqual([
      {
        line: 3,
        errors: [
          "row: is longer than 1048576 bytes, and is not read (a quote that is never closed makes the rest of a CSV file one row)",
        ],
      },
    ]);
    expect(await skusLike(p)).toEqual([`${p}-1`, `${p}-3`]);
  });

  it("a stored file whose header names a column twice fails the job naming its line; nothing is written", async () => {
    const p = `DH-${unique()}`;
    // Stored as POST /uploads stored files before it read their header.
    const file = new TextEncoder().encode(`\nsku,name,sku\n${p}-1,One,${p}-x\n`);
    const id = crypto.randomUUID();
    await env.FILES.put(uploadKey(tenant.id, id), file);
    const now = Date.now();
    await (await tenantDatabase(tenant.id))
      .prepare(
        "insert into uploads (id, tenant_id, format, bytes, actor_type, actor_id, created_at, expires_at) values (?, ?, 'csv', ?, 'user', 'seed', ?, ?)",
      )
      .bind(
        id,
        tenant.id,
        file.byteLength,
        new Date(now).toISOString(),
        new Date(now + 86_400_000).toISOString(),
      )
      .run();
    const job = await runJob(tenant.admin, { type: "product_import", uploadId: id });
    expect(job).toMatchObject({ status: "failed", error: "line 2: the header names the column sku twice" });
    expect(await skusLike(p)).toEqual([]);
  });

  it("an upload in a charset other than UTF-8 is a 415", async () => {
    for (const contentType of ["text/csv; charset=utf-16", "application/x-ndjson; charset=latin1"]) {
      expect((await uploadBytes(fileOf("sku,name\n"), contentType)).status, contentType).toBe(415);
    }
    expect((await uploadBytes(fileOf("sku,name\nA,B\n"), "text/csv; charset=utf-8")).status).toBe(201);
  });
});
