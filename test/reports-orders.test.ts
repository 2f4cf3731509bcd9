import { beforeAll, describe, expect, it } from "vitest";
import {
  createTenant,
  purchaseOrder,
  salesOrder,
  scopedKey,
  setStatus,
  stockedProduct,
  type TestTenant,
  userWithRole,
} from "./support/builders";
import { asCsvCells, csvObjects } from "./support/csv";
import { call } from "./support/http";

// Orders are placed through the orders API (catalog and stock rows come from the order fixtures), so
// they are created today: the summary is asked for today's UTC date.
let tenant: TestTenant;
let other: TestTenant;
const today = new Date().toISOString().slice(0, 10);
const TODAY = `from=${today}&to=${today}`;

beforeAll(async () => {
  tenant = await createTenant();
  other = await createTenant();
  const mug = await stockedProduct(tenant, 100);
  const pen = await stockedProduct(tenant, 100);
  const placed = async (
    lines: { productId: string; quantity: number; price: number }[],
    who: TestTenant = tenant,
  ) => {
    const res = await salesOrder(who, lines, {}, who.admin);
    expect(res.status).toBe(201);
    return res.body.data.id as string;
  };
  // pending: 3 x 19.99 + 1 x 0.0001 = 59.9701
  await placed([
    { productId: mug.productId, quantity: 3, price: 19.99 },
    { productId: pen.productId, quantity: 1, price: 0.0001 },
  ]);
  // pending: 1 x 0.1 + 2 x 0.1 = 0.3
  await placed([
    { productId: mug.productId, quantity: 1, price: 0.1 },
    { productId: pen.productId, quantity: 2, price: 0.1 },
  ]);
  // cancelled: 2 x 10.5 = 21
  const cancelled = await placed([{ productId: mug.productId, quantity: 2, price: 10.5 }]);
  expect((await setStatus(tenant, cancelled, { status: "cancelled" })).status).toBe(200);
  // purchase, draft: 5 x 1.2345 = 6.1725
  const purchase = await purchaseOrder(tenant, mug.warehouseId, [
    { productId: mug.productId, quantity: 5, cost: 1.2345 },
  ]);
  expect(purchase.status).toBe(201);

  const theirs = await stockedProduct(other, 10);
  await placed([{ productId: theirs.productId, quantity: 1, price: 999 }], other);
});

describe("order-summary", () => {
  it("counts orders and sums their value per day, type and status, exactly", async () => {
    const res = await call("GET", `/reports/order-summary?${TODAY}`, { headers: tenant.admin });
    expect(res.status).toBe(200);
    expect(res.body.data.items).toEqual([
      { day: today, type: "purchase", status: "draft", orders: 1, value: 6.1725, valueExact: "6.1725" },
      { day: today, type: "sales", status: "cancelled", orders: 1, value: 21, valueExact: "21" },
      { day: today, type: "sales", status: "pending", orders: 2, value: 60.2701, valueExact: "60.2701" }, // 59.9701 + 0.3
    ]);
    expect(res.body.data.totals).toEqual({
      orders: 4,
      byStatus: [
        { type: "purchase", status: "draft", orders: 1, value: 6.1725, valueExact: "6.1725" },
        { type: "sales", status: "cancelled", orders: 1, value: 21, valueExact: "21" },
        { type: "sales", status: "pending", orders: 2, value: 60.2701, valueExact: "60.2701" },
      ],
    });
  });

  it("filters by type, and leaves out orders outside the range", async () => {
    const sales = await call("GET", `/reports/order-summary?${TODAY}&type=sales`, { headers: tenant.admin });
    expect(sales.body.data.items.map((r: { status: string }) => r.status)).toEqual(["cancelled", "pending"]);
    expect(sales.body.data.totals.orders).toBe(3);
    const earlier = await call("GET", "/reports/order-summary?from=2026-01-01&to=2026-01-31", {
      headers: tenant.admin,
    });
    expect(earlier.body.data).toMatchObject({
      items: [],
      totalCount: 0,
      totals: { orders: 0, byStatus: [] },
    });
  });

  it("says the same in JSON and CSV", async () => {
    const json = await call("GET", `/reports/order-summary?${TODAY}`, { headers: tenant.admin });
    const res = await call("GET", `/reports/order-summary?${TODAY}&format=csv`, { headers: tenant.admin });
    const text = String(res.body.data);
    expect(text.split("\r\n")[0]).toBe("day,type,status,orders,value");
    expect(text).toContain(`${today},sales,pending,2,60.2701\r\n`);
    const headers = ["day", "type", "status", "orders", "value"];
    expect(csvObjects(text)).toEqual(
      json.body.data.items.map((item: Record<string, unknown>) => asCsvCells(item, headers)),
    );
  });

  it("never counts another tenant's orders", async () => {
    const theirs = await call("GET", `/reports/order-summary?${TODAY}`, { headers: other.admin });
    expect(theirs.body.data.items).toEqual([
      { day: today, type: "sales", status: "pending", orders: 1, value: 999, valueExact: "999" },
    ]);
  });
});

describe("scopes", () => {
  const inventoryReports = [
    "/reports/inventory-valuation",
    "/reports/low-stock",
    "/reports/stock-movements?from=2026-11-01&to=2026-11-30",
  ];
  const orderReport = `/reports/order-summary?${TODAY}`;

  it("each report with a key holding each scope alone: unit costs need read:products too, in both formats", async () => {
    const valuation = "/reports/inventory-valuation";
    const lowStock = "/reports/low-stock";
    const movements = "/reports/stock-movements?from=2026-11-01&to=2026-11-30";
    const readable: Record<string, string[]> = {
      "read:products": [],
      "write:products": [],
      "read:inventory": [lowStock, movements],
      "write:inventory": [lowStock, movements],
      "read:orders": [orderReport],
      "write:orders": [orderReport],
      admin: [valuation, lowStock, movements, orderReport],
    };
    for (const [scope, allowed] of Object.entries(readable)) {
      const key = await scopedKey(tenant, [scope]);
      for (const path of [valuation, lowStock, movements, orderReport]) {
        for (const format of ["json", "csv"]) {
          const res = await call("GET", `${path}${path.includes("?") ? "&" : "?"}format=${format}`, {
            headers: key,
          });
          expect(res.status, `${scope} ${path} ${format}`).toBe(allowed.includes(path) ? 200 : 403);
        }
      }
      expect((await call("GET", "/reports", { headers: key })).status, scope).toBe(200);
    }
    const inventoryOnly = await scopedKey(tenant, ["read:inventory"]);
    const denied = await call("GET", valuation, { headers: inventoryOnly });
    expect(denied.body.errors).toEqual(["This request needs the read:products scope"]);
    const ordersOnly = await scopedKey(tenant, ["read:orders"]);
    expect((await call("GET", valuation, { headers: ordersOnly })).body.errors).toEqual([
      "This request needs the read:inventory and read:products scopes",
    ]);
    const both = await scopedKey(tenant, ["read:inventory", "read:products"]);
    expect((await call("GET", valuation, { headers: both })).status).toBe(200);
    expect((await call("GET", `${valuation}?format=csv`, { headers: both })).status).toBe(200);
  });

  it("write scopes imply read", async () => {
    const writer = await scopedKey(tenant, ["write:inventory", "write:orders", "write:products"]);
    for (const path of [...inventoryReports, orderReport]) {
      expect((await call("GET", path, { headers: writer })).status, path).toBe(200);
    }
  });

  it("a signed-in viewer reads every report; without X-Tenant-Id it is a 400", async () => {
    const viewer = await userWithRole(tenant, "viewer");
    for (const path of [...inventoryReports, orderReport, "/reports"]) {
      expect((await call("GET", path, { headers: viewer })).status, path).toBe(200);
    }
    const { "x-tenant-id": _, ...noTenant } = viewer;
    expect((await call("GET", "/reports/low-stock", { headers: noTenant })).status).toBe(400);
    const outsider = await userWithRole(other, "viewer");
    const foreign = await call("GET", "/reports/low-stock", {
      headers: { ...outsider, "x-tenant-id": tenant.id },
    });
    expect(foreign.status).toBe(403);
  });
});
