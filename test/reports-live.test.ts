import { beforeAll, expect, it } from "vitest";
import {
  adjustStock,
  createLocation,
  createProduct,
  createTenant,
  createWarehouse,
  salesOrder,
  type TestTenant,
} from "./support/builders";
import { call } from "./support/http";

// The reports read what the real write paths produce: catalog, adjustments and a sales order's
// reservation all go through the API here (the other report tests seed D1 for dated ledgers and volume).
let tenant: TestTenant;
let mugId: string;
const today = new Date().toISOString().slice(0, 10);
const TODAY = `from=${today}&to=${today}`;

beforeAll(async () => {
  tenant = await createTenant();
  const warehouse = await createWarehouse(tenant, { code: "LIVE" });
  const a = await createLocation(tenant, warehouse.id, { code: "A" });
  const b = await createLocation(tenant, warehouse.id, { code: "B" });
  const mug = await createProduct(tenant, {
    sku: "LIVE-MUG",
    name: "Mug",
    category: "kitchen",
    cost: 2.5,
    reorderPoint: 10,
  });
  mugId = mug.id;
  await adjustStock(tenant, mugId, a.id, 8, "received");
  await adjustStock(tenant, mugId, b.id, 4, "received");
  await adjustStock(tenant, mugId, a.id, -2, "damaged");
  const order = await salesOrder(tenant, [{ productId: mugId, quantity: 3, price: 19.99 }]);
  expect(order.status).toBe(201);
});

const get = <P extends string>(path: P) => call("GET", path, { headers: tenant.admin });

it("values and flags the stock the API wrote: 10 on hand x 2.5, 3 reserved, 7 available under 10", async () => {
  const valuation = await get("/reports/inventory-valuation");
  expect(valuation.body.data.items).toMatchObject([
    { sku: "LIVE-MUG", onHand: 10, unitCost: 2.5, value: 25, valueExact: "25" },
  ]);
  expect(valuation.body.data.totals).toMatchObject({
    onHand: 10,
    reserved: 3,
    available: 7,
    value: 25,
    valueExact: "25",
  });
  const low = await get("/reports/low-stock");
  expect(low.body.data.items).toMatchObject([
    { sku: "LIVE-MUG", onHand: 10, reserved: 3, available: 7, reorderPoint: 10, shortfall: 3 },
  ]);
});

it("lists the adjustments in the ledger, and the order in the summary", async () => {
  const ledger = await get(`/reports/stock-movements?${TODAY}&productId=${mugId}`);
  expect(ledger.body.data.items.map((m: { delta: number; reason: string }) => [m.delta, m.reason])).toEqual([
    [8, "received"],
    [4, "received"],
    [-2, "damaged"],
  ]);
  expect(ledger.body.data.totals).toEqual({
    movements: 3,
    netDelta: 10,
    byDay: [{ day: today, movements: 3, unitsIn: 12, unitsOut: 2, netDelta: 10 }],
  });
  const summary = await get(`/reports/order-summary?${TODAY}`);
  expect(summary.body.data.items).toEqual([
    { day: today, type: "sales", status: "pending", orders: 1, value: 59.97, valueExact: "59.97" },
  ]);
});
