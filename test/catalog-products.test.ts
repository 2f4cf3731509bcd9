import { beforeAll, describe, expect, it } from "vitest";
import {
  adjustStock,
  createProduct,
  createTenant,
  createWarehouse,
  purchaseOrder,
  scopedKey,
  stockedProduct,
  type TestTenant,
} from "./support/builders";
import { outboxEvents, tenantDatabase } from "./support/database";
import { call } from "./support/http";

let tenant: TestTenant;
beforeAll(async () => {
  tenant = await createTenant();
});

const post = (body: unknown, headers = tenant.admin) => call("POST", "/products", { headers, body });
const list = async (query: string, t = tenant) =>
  (await call("GET", `/products?${query}`, { headers: t.admin })).body.data;

describe("products", () => {
  it("create with exact money, read back with an ETag, and list newest first", async () => {
    const res = await post({
      sku: "CRT-001",
      name: "Crate",
      barcode: "4006381333931",
      category: "boxes",
      unit: "pcs",
      price: 19.99,
      cost: 0.0001,
      reorderPoint: 5,
      description: "A wooden crate",
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      sku: "CRT-001",
      price: 19.99,
      cost: 0.0001,
      status: "Active",
      reorderPoint: 5,
    });
    expect(res.headers.get("etag")).toBe('"v1"');
    const got = await call("GET", `/products/${res.body.data.id}`, { headers: tenant.admin });
    expect(got.body.data).toEqual(res.body.data);
    expect(got.headers.get("etag")).toBe('"v1"');
    // Money is stored exactly, in ten-thousandths.
    const row = await (await tenantDatabase(tenant.id))
      .prepare("select price_e4, cost_e4 from products where id = ?")
      .bind(res.body.data.id)
      .first();
    expect(row).toEqual({ price_e4: 199900, cost_e4: 1 });
  });

  it("validate with the spec's messages, one per field", async () => {
    const res = await post({ barcode: "12ab", price: 1.23456, colour: "red" });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual(
      expect.arrayContaining([
        "sku: SKU is required",
        "name: Name is required",
        "barcode: must be a digit string",
        "price: must have at most 4 decimals",
      ]),
    );
  });

  it("keep sku and barcode unique per tenant (409), but not across tenants", async () => {
    await createProduct(tenant, { sku: "DUP-1", barcode: "111" });
    expect((await post({ sku: "DUP-1", name: "x" })).status).toBe(409);
    const barcode = await post({ sku: "DUP-2", name: "x", barcode: "111" });
    expect(barcode.status).toBe(409);
    expect(barcode.body.message).toBe("A product with this barcode already exists");
    const other = await createTenant();
    expect((await post({ sku: "DUP-1", name: "x", barcode: "111" }, other.admin)).status).toBe(201);
  });

  it("update with PUT or PATCH, each taking any subset of fields; a stale If-Match is 412", async () => {
    const product = await createProduct(tenant, { name: "Old", price: 1 });
    const put = await call("PUT", `/products/${product.id}`, {
      headers: { ...tenant.admin, "if-match": '"v1"' },
      body: { name: "New", price: 2.5 },
    });
    expect(put.status).toBe(200);
    expect(put.body.data).toMatchObject({ name: "New", price: 2.5, sku: product.sku });
    expect(put.headers.get("etag")).toBe('"v2"');
    // An integrator updating just the price sends only the price (security review #12): the rest stays.
    const priceOnly = await call("PUT", `/products/${product.id}`, {
      headers: tenant.admin,
      body: { price: 0.3 },
    });
    expect(priceOnly.status).toBe(200);
    expect(priceOnly.body.data).toMatchObject({ name: "New", price: 0.3, sku: product.sku });
    const emptyName = await call("PUT", `/products/${product.id}`, {
      headers: tenant.admin,
      body: { name: " " },
    });
    expect(emptyName.body.errors).toEqual(["name: Name is required"]);
    const patch = await call("PATCH", `/products/${product.id}`, {
      headers: tenant.admin,
      body: { status: "Inactive" },
    });
    expect(patch.body.data).toMatchObject({ name: "New", status: "Inactive" });
    const stale = await call("PATCH", `/products/${product.id}`, {
      headers: { ...tenant.admin, "if-match": '"v1"' },
      body: { name: "Lost update" },
    });
    expect(stale.status).toBe(412);
    const staleDelete = await call("DELETE", `/products/${product.id}`, {
      headers: { ...tenant.admin, "if-match": '"v2"' },
    });
    expect(staleDelete.status).toBe(412);
    expect((await call("GET", `/products/${product.id}`, { headers: tenant.admin })).body.data.name).toBe(
      "New",
    );
  });

  it("two integrators writing with the same ETag: exactly one wins", async () => {
    const product = await createProduct(tenant);
    const results = await Promise.all(
      ["A", "B"].map((name) =>
        call("PATCH", `/products/${product.id}`, {
          headers: { ...tenant.admin, "if-match": '"v1"' },
          body: { name },
        }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 412]);
  });

  it("delete: 409 while stock remains, then gone (404)", async () => {
    const { productId, locationId } = await stockedProduct(tenant, 2);
    const blocked = await call("DELETE", `/products/${productId}`, { headers: tenant.admin });
    expect(blocked.status).toBe(409);
    expect(blocked.body.message).toMatch(/has stock/);
    await adjustStock(tenant, productId, locationId, -2);
    expect((await call("DELETE", `/products/${productId}`, { headers: tenant.admin })).status).toBe(200);
    expect((await call("GET", `/products/${productId}`, { headers: tenant.admin })).status).toBe(404);
  });

  it("delete: 409 while the product is on an open order line, allowed once the order is cancelled", async () => {
    const product = await createProduct(tenant);
    const warehouse = await createWarehouse(tenant);
    const order = await purchaseOrder(tenant, warehouse.id, [{ productId: product.id, quantity: 5 }]);
    expect(order.status, JSON.stringify(order.body)).toBe(201);
    const blocked = await call("DELETE", `/products/${product.id}`, { headers: tenant.admin });
    expect(blocked.status).toBe(409);
    expect(blocked.body.message).toMatch(/open orders/);
    const cancelled = await call("PATCH", `/orders/${order.body.data.id}/status`, {
      headers: tenant.admin,
      body: { status: "cancelled" },
    });
    expect(cancelled.status).toBe(200);
    expect((await call("DELETE", `/products/${product.id}`, { headers: tenant.admin })).status).toBe(200);
  });

  it("sort by every field, ascending and descending", async () => {
    const t = await createTenant();
    const skus = ["B-2", "A-3", "C-1"];
    for (const [i, sku] of skus.entries()) {
      await createProduct(t, { sku, name: `Name ${3 - i}`, price: [5, 1, 3][i] });
      await new Promise((resolve) => setTimeout(resolve, 3)); // distinct createdAt
    }
    // Touch the first product last, so updatedAt orders differently from createdAt.
    await call("PATCH", `/products/${(await list("sort=sku", t)).items[1]!.id}`, {
      headers: t.admin,
      body: { description: "touched" },
    });
    const skusOf = async (sort: string) =>
      (await list(`sort=${sort}`, t)).items.map((p: { sku: string }) => p.sku);
    expect(await skusOf("sku")).toEqual(["A-3", "B-2", "C-1"]);
    expect(await skusOf("-sku")).toEqual(["C-1", "B-2", "A-3"]);
    expect(await skusOf("name")).toEqual(["C-1", "A-3", "B-2"]);
    expect(await skusOf("price")).toEqual(["A-3", "C-1", "B-2"]);
    expect(await skusOf("-price")).toEqual(["B-2", "C-1", "A-3"]);
    expect(await skusOf("createdAt")).toEqual(["B-2", "A-3", "C-1"]);
    expect(await skusOf("-createdAt")).toEqual(["C-1", "A-3", "B-2"]);
    expect(await skusOf("updatedAt")).toEqual(["A-3", "C-1", "B-2"]);
    expect(await skusOf("-updatedAt")).toEqual(["B-2", "C-1", "A-3"]);
  });

  it("refuse values over the limits and answer 404 for an unknown id", async () => {
    const long = await post({ sku: "S".repeat(65), name: "N".repeat(201) });
    expect(long.status).toBe(400);
    expect(long.body.errors).toEqual(
      expect.arrayContaining(["sku: must be at most 64 characters", "name: must be at most 200 characters"]),
    );
    const unknown = crypto.randomUUID();
    for (const method of ["GET", "PATCH", "DELETE"] as const) {
      const body = method === "PATCH" ? { name: "x" } : undefined;
      const res = await call(method, `/products/${unknown}`, { headers: tenant.admin, body });
      expect(res.status, method).toBe(404);
    }
  });

  it("filter, search, sort and sync by updatedSince", async () => {
    const t = await createTenant();
    await createProduct(t, {
      sku: "APL-1",
      name: "Green Apple",
      category: "fruit",
      price: 3,
      barcode: "9001",
    });
    await createProduct(t, { sku: "BAN-1", name: "Banana", category: "fruit", price: 1 });
    await createProduct(t, { sku: "CAR-1", name: "Carrot", category: "veg", price: 2, status: "Inactive" });
    const since = new Date().toISOString();
    await new Promise((resolve) => setTimeout(resolve, 5));
    const later = await createProduct(t, { sku: "DAT-1", name: "Date", category: "fruit", price: 4 });

    expect((await list("", t)).items.map((p: { sku: string }) => p.sku)).toEqual([
      "DAT-1",
      "CAR-1",
      "BAN-1",
      "APL-1",
    ]);
    expect((await list("", t)).totalCount).toBe(4);
    expect((await list("category=fruit&sort=price", t)).items.map((p: { sku: string }) => p.sku)).toEqual([
      "BAN-1",
      "APL-1",
      "DAT-1",
    ]);
    expect((await list("status=Inactive", t)).items.map((p: { sku: string }) => p.sku)).toEqual(["CAR-1"]);
    expect((await list("search=apple", t)).items.map((p: { sku: string }) => p.sku)).toEqual(["APL-1"]);
    expect((await list("search=RROT", t)).items.map((p: { sku: string }) => p.sku)).toEqual(["CAR-1"]);
    expect((await list("search=900", t)).items.map((p: { sku: string }) => p.sku)).toEqual(["APL-1"]);
    expect((await list("search=ba", t)).items.map((p: { sku: string }) => p.sku)).toEqual(["BAN-1"]);
    // Short terms are prefixes in any case, of sku, name or (digits) barcode; % and _ are literal.
    expect((await list("search=gR", t)).items.map((p: { sku: string }) => p.sku)).toEqual(["APL-1"]);
    expect((await list("search=c", t)).items.map((p: { sku: string }) => p.sku)).toEqual(["CAR-1"]);
    expect((await list("search=90", t)).items.map((p: { sku: string }) => p.sku)).toEqual(["APL-1"]);
    expect((await list("search=%25", t)).totalCount).toBe(0);
    for (const term of ["\u{10FFFF}", "\u{10FFFF}\u{10FFFF}", "\uD7FF", "ß", "_", " 9", "😀"]) {
      const res = await call("GET", `/products?search=${encodeURIComponent(term)}`, { headers: t.admin });
      expect(res.status, term).toBe(200);
    }
    // By name descending: Green Apple, Date, Carrot, Banana.
    expect((await list("sort=-name&pageSize=2&page=2", t)).items.map((p: { sku: string }) => p.sku)).toEqual([
      "CAR-1",
      "BAN-1",
    ]);
    expect(
      (await list(`updatedSince=${encodeURIComponent(since)}`, t)).items.map((p: { id: string }) => p.id),
    ).toEqual([later.id]);
    // Another tenant's products never match, even by search.
    expect((await list("search=apple")).items.some((p: { sku: string }) => p.sku === "APL-1")).toBe(false);
  });

  it("answer 400 for bad list parameters and an empty page past the end", async () => {
    for (const query of [
      "pageSize=0",
      "pageSize=101",
      "status=gone",
      "sort=colour",
      "updatedSince=yesterday",
    ]) {
      expect((await call("GET", `/products?${query}`, { headers: tenant.admin })).status, query).toBe(400);
    }
    const past = await list("page=999");
    expect(past.items).toEqual([]);
    expect(past.page).toBe(999);
  });

  it("read the products a page names in one request (ids): only the tenant's own, at most 100", async () => {
    const t = await createTenant();
    const other = await createTenant();
    const [a, b] = [await createProduct(t, { sku: "IDS-A" }), await createProduct(t, { sku: "IDS-B" })];
    await createProduct(t, { sku: "IDS-C" });
    const foreign = await createProduct(other);
    const missing = crypto.randomUUID();
    const found = await list(`ids=${a.id},${b.id},${a.id},${foreign.id},${missing}&sort=sku`, t);
    expect(found.items.map((p: { sku: string }) => p.sku)).toEqual(["IDS-A", "IDS-B"]);
    expect(found.totalCount).toBe(2);
    // With another filter, both apply.
    expect(
      (await list(`ids=${a.id},${b.id}&search=IDS-B`, t)).items.map((p: { id: string }) => p.id),
    ).toEqual([b.id]);
    const hundred = Array.from({ length: 100 }, () => crypto.randomUUID());
    expect((await call("GET", `/products?ids=${hundred.join(",")}`, { headers: t.admin })).status).toBe(200);
    for (const ids of [[...hundred, a.id].join(","), "not-a-uuid", `${a.id},`, ""]) {
      const res = await call("GET", `/products?ids=${ids}`, { headers: t.admin });
      expect(res.status, ids).toBe(400);
      expect(res.body.errors).toEqual(["ids: must be at most 100 comma-separated UUIDs"]);
    }
  });

  it("write product events exactly for committed changes", async () => {
    const t = await createTenant();
    const product = await createProduct(t, { sku: "EVT-1" });
    await call("POST", "/products", { headers: t.admin, body: { sku: "EVT-1", name: "dup" } });
    await call("PATCH", `/products/${product.id}`, {
      headers: { ...t.admin, "if-match": '"v9"' },
      body: { name: "x" },
    });
    await call("PATCH", `/products/${product.id}`, { headers: t.admin, body: { name: "Renamed" } });
    await call("DELETE", `/products/${product.id}`, { headers: t.admin });
    const events = await outboxEvents(t);
    expect(events.map((event) => event.type)).toEqual([
      "product.created",
      "product.updated",
      "product.deleted",
    ]);
    expect(events[1]!.payload).toMatchObject({ id: product.id, name: "Renamed", sku: "EVT-1" });
  });

  it("need read:products / write:products; another tenant's id is 404", async () => {
    const product = await createProduct(tenant);
    const reader = await scopedKey(tenant, ["read:products"]);
    expect((await call("GET", `/products/${product.id}`, { headers: reader })).status).toBe(200);
    expect((await post({ sku: "X", name: "x" }, reader)).status).toBe(403);
    expect((await call("DELETE", `/products/${product.id}`, { headers: reader })).status).toBe(403);
    const inventoryOnly = await scopedKey(tenant, ["read:inventory"]);
    expect((await call("GET", "/products", { headers: inventoryOnly })).status).toBe(403);
    expect((await call("GET", "/products")).status).toBe(401);
    const other = await createTenant();
    for (const [method, body] of [
      ["GET"],
      ["PUT", { name: "x" }],
      ["PATCH", { name: "x" }],
      ["DELETE"],
    ] as const) {
      const res = await call(method, `/products/${product.id}`, { headers: other.admin, body });
      expect(res.status, method).toBe(404);
    }
  });
});
