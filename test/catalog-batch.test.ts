import { beforeAll, describe, expect, it } from "vitest";
import { createProduct, createTenant, scopedKey, type TestTenant, unique } from "./support/builders";
import { outboxEvents } from "./support/database";
import { call } from "./support/http";

let tenant: TestTenant;
beforeAll(async () => {
  tenant = await createTenant();
});

const upsert = (products: unknown[], headers: Record<string, string> = tenant.admin) =>
  call("POST", "/products/batch", { headers, body: { products } });
const productEvents = async (t: TestTenant, sku: string) =>
  (await outboxEvents(t, /^product\./)).filter((e) => e.payload.sku === sku).map((e) => e.type);
const bySku = async (sku: string, t: TestTenant = tenant) =>
  (await call("GET", `/products?search=${sku}`, { headers: t.admin })).body.data.items.filter(
    (p) => p.sku === sku,
  );

describe("POST /products/batch", () => {
  it("creates new SKUs and updates stored ones (only the fields sent), leaving unchanged ones alone", async () => {
    const stored = await createProduct(tenant, { name: "Old", price: 1 });
    const same = await createProduct(tenant, { name: "Same", price: 2 });
    const fresh = `NEW-${unique().toUpperCase()}`;
    const res = await upsert([
      { sku: fresh, name: "Fresh", price: 3.5, tracking: "lot" },
      { sku: stored.sku, price: 9.25 },
      { sku: same.sku, name: "Same", price: 2 },
    ]);
    expect(res.status).toBe(200);
    const created = (await bySku(fresh))[0];
    expect(res.body.data).toEqual({
      applied: 3,
      failed: 0,
      results: [
        { status: 201, action: "created", id: created?.id },
        { status: 200, action: "updated", id: stored.id },
        { status: 200, action: "unchanged", id: same.id },
      ],
    });
    expect(created).toMatchObject({ name: "Fresh", price: 3.5, tracking: "lot" });
    expect((await bySku(stored.sku))[0]).toMatchObject({ name: "Old", price: 9.25 });
    const etag = (await call("GET", `/products/${same.id}`, { headers: tenant.admin })).headers.get("etag");
    expect(etag).toBe('"v1"');
    expect(await productEvents(tenant, fresh)).toEqual(["product.created"]);
    expect(await productEvents(tenant, stored.sku)).toEqual(["product.created", "product.updated"]);
    expect(await productEvents(tenant, same.sku)).toEqual(["product.created"]);
  });

  it("answers a batch with nothing to write (every product as stored) line by line", async () => {
    const same = await createProduct(tenant, { name: "As stored", price: 4 });
    const res = await upsert([{ sku: same.sku, name: "As stored", price: 4 }]);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      applied: 1,
      failed: 0,
      results: [{ status: 200, action: "unchanged", id: same.id }],
    });
  });

  it("refuses each bad line on its own and writes the others", async () => {
    const holder = await createProduct(tenant, { barcode: "4006381333931" });
    const lot = await createProduct(tenant, { tracking: "lot" });
    const good = `OK-${unique().toUpperCase()}`;
    const twice = `TW-${unique().toUpperCase()}`;
    const res = await upsert([
      { sku: `NN-${unique().toUpperCase()}`, price: 1 },
      { sku: twice, name: "First" },
      { sku: twice, name: "Second" },
      { sku: `BC-${unique().toUpperCase()}`, name: "Barcode", barcode: "4006381333931" },
      { sku: lot.sku, tracking: "none" },
      { sku: good, name: "Good" },
    ]);
    expect(res.status).toBe(200);
    const { results } = res.body.data;
    expect(res.body.data).toMatchObject({ applied: 2, failed: 4 });
    expect(results[0]).toEqual({ status: 400, errors: ["name: Name is required"] });
    expect(results[1]).toMatchObject({ status: 201, action: "created" });
    expect(results[2]).toEqual({ status: 400, errors: [`sku: ${twice} duplicates line 1`] });
    expect(results[3]).toEqual({
      status: 409,
      errors: [`barcode: 4006381333931 already belongs to ${holder.sku}`],
    });
    expect(results[4]).toEqual({
      status: 409,
      errors: [
        "tracking: a stored product's tracking changes one product at a time (PUT /products/{id}), while it has no stock",
      ],
    });
    expect(results[5]).toMatchObject({ status: 201, action: "created" });
    expect(await bySku(twice)).toMatchObject([{ name: "First" }]);
    expect(await bySku(good)).toHaveLength(1);
  });

  it.each([10, 1000])("%i products created, then updated, in one request each", async (size) => {
    const t = await createTenant();
    const prefix = `P${size}-${unique().toUpperCase()}`;
    const lines = Array.from({ length: size }, (_, i) => ({
      sku: `${prefix}-${i}`,
      name: `Item ${i}`,
      price: 1,
    }));
    const created = await upsert(lines, t.admin);
    expect(created.status).toBe(200);
    expect(created.body.data).toMatchObject({ applied: size, failed: 0 });
    const updated = await upsert(
      lines.map((l) => ({ sku: l.sku, price: 2 })),
      t.admin,
    );
    expect(updated.body.data.results.every((r) => r.action === "updated")).toBe(true);
    const page = await call("GET", "/products?pageSize=1&sort=sku", { headers: t.admin });
    expect(page.body.data.totalCount).toBe(size);
    expect(page.body.data.items[0]).toMatchObject({ price: 2 });
    const events = (await outboxEvents(t, /^product\./)).map((e) => e.type);
    expect(events.filter((e) => e === "product.created")).toHaveLength(size);
    expect(events.filter((e) => e === "product.updated")).toHaveLength(size);
  });

  it("two concurrent batches naming the same new SKUs: each SKU exists once, and both batches succeed", async () => {
    const t = await createTenant();
    const skus = Array.from({ length: 20 }, (_, i) => `RACE-${unique().toUpperCase()}-${i}`);
    const [a, b] = await Promise.all(
      ["A", "B"].map((name) =>
        upsert(
          skus.map((sku) => ({ sku, name })),
          t.admin,
        ),
      ),
    );
    expect(a?.body.data.failed).toBe(0);
    expect(b?.body.data.failed).toBe(0);
    const page = await call("GET", "/products?pageSize=100", { headers: t.admin });
    expect(page.body.data.totalCount).toBe(20);
    const created = [...(a?.body.data.results ?? []), ...(b?.body.data.results ?? [])].filter(
      (r) => r.action === "created",
    );
    expect(created).toHaveLength(20);
  });

  it("keys by the caller's own SKUs: another tenant's product of the same SKU is never touched", async () => {
    const other = await createTenant();
    const theirs = await createProduct(other, { name: "Theirs" });
    const res = await upsert([{ sku: theirs.sku, name: "Mine" }]);
    expect(res.body.data.results[0]).toMatchObject({ status: 201, action: "created" });
    expect(await bySku(theirs.sku, other)).toMatchObject([{ id: theirs.id, name: "Theirs" }]);
    expect(await bySku(theirs.sku)).toMatchObject([{ name: "Mine" }]);
  });

  it("one Idempotency-Key covers the batch; 401 without a credential, 403 without write:products", async () => {
    const sku = `IK-${unique().toUpperCase()}`;
    const headers = { ...tenant.admin, "idempotency-key": crypto.randomUUID() };
    const first = await upsert([{ sku, name: "Once" }], headers);
    const again = await upsert([{ sku, name: "Once" }], headers);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body).toEqual(first.body);
    expect(await productEvents(tenant, sku)).toEqual(["product.created"]);
    expect((await call("POST", "/products/batch", { body: { products: [] } })).status).toBe(401);
    const reader = await scopedKey(tenant, ["read:products", "write:inventory"]);
    expect((await upsert([{ sku, name: "x" }], reader)).status).toBe(403);
    const empty = await upsert([]);
    expect(empty.status).toBe(400);
    expect(empty.body.errors).toEqual(["products: must have at least 1 product"]);
  });
});

describe("product import, as the batch writes", () => {
  it("stores a new product's tracking, and refuses to change a stored product's tracking", async () => {
    const t = await createTenant();
    const sku = `TR-${unique().toUpperCase()}`;
    const first = await call("POST", "/products/import", {
      headers: t.admin,
      body: [{ sku, name: "Tracked", tracking: "serial" }],
    });
    expect(first.status).toBe(200);
    expect(await bySku(sku, t)).toMatchObject([{ tracking: "serial" }]);
    const again = await call("POST", "/products/import?mode=upsert", {
      headers: t.admin,
      body: [{ sku, name: "Tracked", tracking: "none" }],
    });
    expect(again.status).toBe(400);
    expect(again.body.errors).toEqual([
      "row 1: tracking: a stored product's tracking changes one product at a time (PUT /products/{id}), while it has no stock",
    ]);
  });
});
