import { beforeAll, describe, expect, it } from "vitest";
import {
  address,
  createTenant,
  purchaseOrder,
  salesOrder,
  scopedKey,
  stockedProduct,
  type TestTenant,
  userWithRole,
} from "./support/builders";
import { call } from "./support/http";
import { servedDocument } from "./support/openapi";

let tenant: TestTenant;
let other: TestTenant;
let orderId: string;
let productId: string;
beforeAll(async () => {
  [tenant, other] = [await createTenant(), await createTenant()];
  ({ productId } = await stockedProduct(tenant, 100));
  orderId = (await salesOrder(tenant, [{ productId, quantity: 1 }])).body.data.id;
});

describe("order access", () => {
  it("needs a credential on every order route (401)", async () => {
    const id = crypto.randomUUID();
    for (const [method, path] of [
      ["GET", "/orders"],
      ["GET", `/orders/${id}`],
      ["POST", "/orders/sales"],
      ["POST", "/orders/purchase"],
      ["PATCH", `/orders/${id}/status`],
      ["POST", `/orders/${id}/receive`],
    ] as const) {
      const res = await call(method, path, { body: method === "GET" ? undefined : {} });
      expect(res.status, `${method} ${path}`).toBe(401);
    }
  });

  it("reads with read:orders, writes only with write:orders (403 otherwise)", async () => {
    const reader = await scopedKey(tenant, ["read:orders"]);
    const inventoryOnly = await scopedKey(tenant, ["read:inventory", "write:inventory"]);
    const writer = await scopedKey(tenant, ["write:orders"]);

    expect((await call("GET", "/orders", { headers: reader })).status).toBe(200);
    expect((await call("GET", `/orders/${orderId}`, { headers: reader })).status).toBe(200);
    expect((await call("GET", "/orders", { headers: inventoryOnly })).status).toBe(403);

    expect((await salesOrder(tenant, [{ productId, quantity: 1 }], {}, reader)).status).toBe(403);
    const patch = await call("PATCH", `/orders/${orderId}/status`, {
      headers: reader,
      body: { status: "confirmed" },
    });
    expect(patch.status).toBe(403);

    // write:orders implies read:orders.
    expect((await salesOrder(tenant, [{ productId, quantity: 1 }], {}, writer)).status).toBe(201);
    expect((await call("GET", `/orders/${orderId}`, { headers: writer })).status).toBe(200);
  });

  it("lets a signed-in viewer read but not write, and an operator write", async () => {
    const viewer = await userWithRole(tenant, "viewer");
    const operator = await userWithRole(tenant, "operator");
    expect((await call("GET", `/orders/${orderId}`, { headers: viewer })).status).toBe(200);
    expect((await salesOrder(tenant, [{ productId, quantity: 1 }], {}, viewer)).status).toBe(403);
    const created = await salesOrder(tenant, [{ productId, quantity: 1 }], {}, operator);
    expect(created.status).toBe(201);
    expect(created.body.data.statusHistory[0]?.by).toEqual({ type: "user", id: expect.any(String) });
  });

  it("answers 404 for another tenant's order, and cannot order another tenant's product", async () => {
    const foreign = other.admin;
    expect((await call("GET", `/orders/${orderId}`, { headers: foreign })).status).toBe(404);
    const patch = await call("PATCH", `/orders/${orderId}/status`, {
      headers: foreign,
      body: { status: "cancelled" },
    });
    expect(patch.status).toBe(404);
    const receive = await call("POST", `/orders/${orderId}/receive`, {
      headers: foreign,
      body: { lines: [{ lineId: crypto.randomUUID(), quantity: 1, locationId: crypto.randomUUID() }] },
    });
    expect(receive.status).toBe(404);
    expect((await salesOrder(other, [{ productId, quantity: 1 }])).status).toBe(404);
    const list = await call("GET", "/orders", { headers: foreign });
    expect(list.body.data.totalCount).toBe(0);
    const mine = await call("GET", `/orders/${orderId}`, { headers: tenant.admin });
    expect(mine.body.data.status).toBe("pending");
  });

  it("answers 400 for an id that is not a UUID", async () => {
    expect((await call("GET", "/orders/42", { headers: tenant.admin })).status).toBe(400);
  });
});

describe("GET /orders", () => {
  it("filters by type, status, customer, number and creation time, sorts and pages", async () => {
    const t = await createTenant();
    const { productId: p, warehouseId } = await stockedProduct(t, 100);
    const customer = crypto.randomUUID();
    const a = (await salesOrder(t, [{ productId: p, quantity: 1, price: 5 }], { customerId: customer })).body
      .data;
    const b = (await salesOrder(t, [{ productId: p, quantity: 2, price: 1 }])).body.data;
    const po = await purchaseOrder(t, warehouseId, [{ productId: p, quantity: 1 }]);
    expect(po.status).toBe(201);
    await call("PATCH", `/orders/${b.id}/status`, { headers: t.admin, body: { status: "confirmed" } });

    const list = async (query: string) => {
      const res = await call("GET", `/orders?${query}`, { headers: t.admin });
      expect(res.status, query).toBe(200);
      return res.body.data;
    };
    const numbers = async (query: string) =>
      (await list(query)).items.map((o: { number: string }) => o.number);

    expect(await numbers("")).toEqual(["PO-000001", "SO-000002", "SO-000001"]);
    expect(await numbers("type=sales&sort=number")).toEqual(["SO-000001", "SO-000002"]);
    expect(await numbers("type=purchase")).toEqual(["PO-000001"]);
    expect(await numbers("status=confirmed")).toEqual(["SO-000002"]);
    expect(await numbers(`customerId=${customer}`)).toEqual(["SO-000001"]);
    expect(await numbers("search=so-000001")).toEqual(["SO-000001"]);
    expect(await numbers("search=%25")).toEqual([]);
    expect(await numbers("sort=-total&type=sales")).toEqual(["SO-000001", "SO-000002"]);
    expect(await numbers(`createdFrom=${a.createdAt}&createdTo=${b.createdAt}&type=sales`)).toEqual([
      "SO-000002",
      "SO-000001",
    ]);
    expect(await numbers("createdTo=2020-01-01")).toEqual([]);
    // The orders a page names, in one request; another tenant's is not among them.
    expect(await numbers(`ids=${a.id},${b.id},${orderId}&sort=number`)).toEqual(["SO-000001", "SO-000002"]);
    const today = a.createdAt.slice(0, 10);
    expect(await numbers(`createdFrom=${today}&createdTo=${today}&type=purchase`)).toEqual(["PO-000001"]);

    const page = await list("pageSize=2&page=2");
    expect(page).toMatchObject({ totalCount: 3, page: 2, pageSize: 2, totalPages: 2 });
    expect(page.items).toHaveLength(1);
    const [summary] = (await list("type=sales&sort=number")).items;
    expect(summary).toMatchObject({
      totals: { quantity: 1, total: 5 },
      allowedTransitions: expect.any(Array),
    });
    expect(summary).not.toHaveProperty("lines");
  });

  it("rejects bad filters with 400", async () => {
    for (const query of [
      "status=lost",
      "type=returns",
      "customerId=1",
      "ids=1,2",
      "createdFrom=yesterday",
      "sort=secret",
    ]) {
      const res = await call("GET", `/orders?${query}`, { headers: tenant.admin });
      expect(res.status, query).toBe(400);
    }
  });

  it("documents every order route with its scope", async () => {
    const doc = await servedDocument();
    expect(doc.paths["/api/v1/orders"]?.get?.["x-required-scopes"]).toEqual(["read:orders"]);
    expect(doc.paths["/api/v1/orders/{id}"]?.get?.["x-required-scopes"]).toEqual(["read:orders"]);
    expect(doc.paths["/api/v1/orders/sales"]?.post?.["x-required-scopes"]).toEqual(["write:orders"]);
    expect(doc.paths["/api/v1/orders/purchase"]?.post?.["x-required-scopes"]).toEqual(["write:orders"]);
    expect(doc.paths["/api/v1/orders/{id}/status"]?.patch?.["x-required-scopes"]).toEqual(["write:orders"]);
    expect(doc.paths["/api/v1/orders/{id}/receive"]?.post?.["x-required-scopes"]).toEqual(["write:orders"]);
  });
});

describe("shipping address", () => {
  it("is stored and returned as sent", async () => {
    const { productId: p } = await stockedProduct(tenant, 5);
    const full = { ...address, state: "IL", country: "US" };
    const res = await salesOrder(tenant, [{ productId: p, quantity: 1 }], {
      shippingAddress: full,
      notes: "leave at door",
    });
    expect(res.body.data).toMatchObject({ shippingAddress: full, notes: "leave at door" });
  });
});
