import { beforeAll, describe, expect, it } from "vitest";
import {
  adjustStock,
  createLocation,
  createMerchant,
  createProduct,
  createTenant,
  createWarehouse,
  day,
  salesOrder,
  scopedKey,
  type TestTenant,
} from "./support/builders";
import { call } from "./support/http";

// GET /dashboard (issue #45, every page under 300 ms): the web app's first page reads the totals of four reports in
// one request. It says what the four reports say, for the same caller.

let tenant: TestTenant;
let other: TestTenant;
let acme: string;
let acmeProduct: string;
const RANGE = `from=${day(-29)}&to=${day(0)}`;

beforeAll(async () => {
  [tenant, other] = await Promise.all([createTenant(), createTenant()]);
  acme = await createMerchant(tenant);
  const bin = (await createLocation(tenant, (await createWarehouse(tenant)).id)).id;
  // Two of the tenant's own products (one low on stock) and one of the merchant Acme's (low too), costed.
  const own = await createProduct(tenant, { cost: 2.5, reorderPoint: 0 });
  const ownLow = await createProduct(tenant, { cost: 1, reorderPoint: 50 });
  acmeProduct = (await createProduct(tenant, { merchantId: acme, cost: 4, reorderPoint: 20 })).id;
  await adjustStock(tenant, own.id, bin, 30);
  await adjustStock(tenant, ownLow.id, bin, 5);
  await adjustStock(tenant, acmeProduct, bin, 7);
  expect((await salesOrder(tenant, [{ productId: own.id, quantity: 3, price: 10 }])).status).toBe(201);
  expect((await salesOrder(tenant, [{ productId: acmeProduct, quantity: 2, price: 6 }])).status).toBe(201);
});

const dashboard = (query: string, headers: Record<string, string> = tenant.admin) =>
  call("GET", `/dashboard?${query}`, { headers });

/** A report's answer: its page of lines (their total count) and its totals. */
async function report(type: string, query: string, headers: Record<string, string>) {
  const res = await call("GET", `/reports/${type}?${query}`, { headers });
  expect(res.status, type).toBe(200);
  return res.body.data as { items: unknown[]; totalCount: number; totals: unknown };
}

/** What the four reports say to `headers`, as the dashboard gives it. */
async function fourReports(headers: Record<string, string>, lowStockLimit: number) {
  const [valuation, low, movements, orders] = await Promise.all([
    report("inventory-valuation", "pageSize=1", headers),
    report("low-stock", `pageSize=${lowStockLimit}`, headers),
    report("stock-movements", `${RANGE}&pageSize=1`, headers),
    report("order-summary", `${RANGE}&pageSize=1`, headers),
  ]);
  return {
    stock: valuation.totals,
    lowStock: { items: low.items, totalCount: low.totalCount },
    movements: movements.totals,
    orders: orders.totals,
  };
}

describe("GET /dashboard", () => {
  it("gives the totals of the four reports in one answer", async () => {
    const res = await dashboard(`${RANGE}&lowStockLimit=1`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual(await fourReports(tenant.admin, 1));
    const { stock, lowStock, movements, orders } = res.body.data;
    expect(stock.onHand).toBe(42);
    expect(stock.reserved).toBe(5);
    expect(stock.available).toBe(37);
    expect(stock.valueExact).toBe("108");
    expect(lowStock.totalCount).toBe(2);
    expect(lowStock.items).toHaveLength(1);
    expect(movements.movements).toBe(3);
    expect(movements.netDelta).toBe(42);
    expect(orders.orders).toBe(2);
    // Ten low-stock lines unless asked.
    expect((await dashboard(RANGE)).body.data.lowStock.items).toHaveLength(2);
  });

  it("shows a member acting for a merchant only the merchant's goods and orders", async () => {
    const acmeKey = await call("POST", "/api-keys", {
      headers: tenant.admin,
      body: {
        name: "Acme's key",
        scopes: ["read:inventory", "read:products", "read:orders"],
        merchantId: acme,
      },
    });
    expect(acmeKey.status).toBe(201);
    const headers = { "x-api-key": acmeKey.body.data.key as string };
    const res = await dashboard(RANGE, headers);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual(await fourReports(headers, 10));
    expect(res.body.data.stock.onHand).toBe(7);
    expect(res.body.data.stock.valueExact).toBe("28");
    expect(res.body.data.lowStock.items.map((line: { productId: string }) => line.productId)).toEqual([
      acmeProduct,
    ]);
    expect(res.body.data.movements.movements).toBe(1);
    expect(res.body.data.orders.orders).toBe(1);
  });

  it("shows another tenant nothing of this one's", async () => {
    const res = await dashboard(RANGE, other.admin);
    expect(res.status).toBe(200);
    expect(res.body.data.stock.onHand).toBe(0);
    expect(res.body.data.lowStock).toEqual({ items: [], totalCount: 0 });
    expect(res.body.data.movements.movements).toBe(0);
    expect(res.body.data.orders.orders).toBe(0);
  });

  it("refuses a bad range or limit (400), no credential (401) and a key without the reports' scopes (403)", async () => {
    for (const [query, error] of [
      [`to=${day(0)}`, "from:"],
      [`from=${day(0)}&to=${day(-1)}`, "to: must not be before from"],
      [`from=2026-02-30&to=${day(0)}`, "from: must be a date"],
      [`${RANGE}&lowStockLimit=0`, "lowStockLimit: must be an integer between 1 and 100"],
      [`${RANGE}&lowStockLimit=101`, "lowStockLimit: must be an integer between 1 and 100"],
    ] as const) {
      const res = await dashboard(query);
      expect(res.status, query).toBe(400);
      expect(res.body.errors?.join("; "), query).toContain(error);
    }
    expect((await call("GET", `/dashboard?${RANGE}`)).status).toBe(401);
    for (const scopes of [["read:inventory", "read:products"], ["read:orders"]]) {
      const res = await dashboard(RANGE, await scopedKey(tenant, scopes));
      expect(res.status, scopes.join(" ")).toBe(403);
    }
    expect(
      (await dashboard(RANGE, await scopedKey(tenant, ["read:inventory", "read:products", "read:orders"])))
        .status,
    ).toBe(200);
  });
});
