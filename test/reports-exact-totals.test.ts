import { describe, expect, it } from "vitest";
import {
  adjustStock,
  createLocation,
  createProduct,
  createTenant,
  createWarehouse,
  purchaseOrder,
  type TestTenant,
} from "./support/builders";
import { levelsWithLedger } from "./support/database";
import { BASE, bearer, call, fetchApi } from "./support/http";

// Money totals are sums of integer ten-thousandths. They must never overflow SQLite's 64-bit integers (a 500)
// nor lose digits on the way out (a double holds 2^53 exactly): the JSON carries every digit as a number.

const MAX_ON_HAND = 1_000_000_000;

/** The raw JSON text of an answer (a JSON parser would round what the test checks). */
async function rawReport(tenant: TestTenant, path: string) {
  const response = await fetchApi(new Request(`${BASE}${path}`, { headers: bearer(tenant.adminKey) }));
  expect(response.status, path).toBe(200);
  return response.text();
}

async function stockedLocation(tenant: TestTenant) {
  const warehouse = await createWarehouse(tenant);
  const location = await createLocation(tenant, warehouse.id);
  return { warehouseId: warehouse.id, locationId: location.id };
}

describe("inventory valuation totals", () => {
  it("values two products costing 1,000,000,000 with 500,000 units each (the sum overflowed 64 bits: a 500)", async () => {
    const tenant = await createTenant();
    const { locationId } = await stockedLocation(tenant);
    for (const sku of ["DEAR-1", "DEAR-2"]) {
      const product = await createProduct(tenant, { sku, cost: 1_000_000_000 });
      await adjustStock(tenant, product.id, locationId, 500_000);
    }
    const text = await rawReport(tenant, "/reports/inventory-valuation");
    expect(text.match(/"value":500000000000000\b/g)).toHaveLength(2);
    expect(text).toContain(
      '"totals":{"onHand":1000000,"reserved":0,"expired":0,"nonSellable":0,"available":1000000,"value":1000000000000000,',
    );
  });

  it("keeps every digit of totals above 2^53 ten-thousandths, in JSON and CSV", async () => {
    const tenant = await createTenant();
    const product = await createProduct(tenant, { sku: "MAX-1", cost: 999_999_999.9999 });
    for (let i = 0; i < 3; i++) {
      const { locationId } = await stockedLocation(tenant);
      await adjustStock(tenant, product.id, locationId, 999_999_999);
    }
    // 999,999,999.9999 x 999,999,999 = 999,999,998,999,900,000.0001 per warehouse (22 digits in ten-thousandths).
    const text = await rawReport(tenant, "/reports/inventory-valuation");
    expect(text.match(/"value":999999998999900000\.0001\b/g)).toHaveLength(6); // 3 lines, 3 warehouse totals
    expect(text).toContain(
      '"onHand":2999999997,"reserved":0,"expired":0,"nonSellable":0,"available":2999999997,"value":2999999996999700000.0003,',
    );
    const csv = await rawReport(tenant, "/reports/inventory-valuation?format=csv");
    expect(csv.match(/,999999999\.9999,999999998999900000\.0001,/g)).toHaveLength(3);

    // A JavaScript reader: JSON.parse rounds the numbers (to 2999999996999700000), the Exact strings do not.
    const { data } = (await call("GET", "/reports/inventory-valuation", { headers: tenant.admin })).body;
    expect(String(data.totals.value)).not.toBe("2999999996999700000.0003");
    expect(data.totals.valueExact).toBe("2999999996999700000.0003");
    expect(data.totals.byWarehouse.map((w) => w.valueExact)).toEqual(
      Array(3).fill("999999998999900000.0001"),
    );
    expect(data.items.map((line) => line.valueExact)).toEqual(Array(3).fill("999999998999900000.0001"));
  });
});

describe("order summary totals", () => {
  it("keeps every digit of a sum of order values above 2^53 ten-thousandths", async () => {
    const tenant = await createTenant();
    const warehouse = await createWarehouse(tenant);
    const product = await createProduct(tenant, { sku: "PO-MAX" });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      // 899 x 999,999,999.9999 = 898,999,999,999.9101: just under 2^53 ten-thousandths, the most one order may total.
      const res = await purchaseOrder(tenant, warehouse.id, [
        { productId: product.id, quantity: 899, cost: 999_999_999.9999 },
      ]);
      expect(res.status).toBe(201);
      ids.push(res.body.data.id);
    }
    // A double prints this total as 898999999999.9102.
    const order = await rawReport(tenant, `/orders/${ids[0]}`);
    expect(order).toContain('"lineTotal":898999999999.9101,"lineTotalExact":"898999999999.9101"}');
    expect(order).toContain('"total":898999999999.9101,"totalExact":"898999999999.9101"}');
    const today = new Date().toISOString().slice(0, 10);
    const text = await rawReport(tenant, `/reports/order-summary?from=${today}&to=${today}`);
    expect(text).toContain('"orders":3,"value":2696999999999.7303,"valueExact":"2696999999999.7303"}');

    // A JavaScript reader: JSON.parse rounds the numbers, the Exact strings keep every digit.
    const read = await call("GET", `/orders/${ids[0]}`, { headers: tenant.admin });
    expect(read.body.data.totals.total).not.toBe("898999999999.9101");
    expect(read.body.data.totals.totalExact).toBe("898999999999.9101");
    expect(read.body.data.lines[0]?.lineTotalExact).toBe("898999999999.9101");
    const summary = await call("GET", `/reports/order-summary?from=${today}&to=${today}`, {
      headers: tenant.admin,
    });
    expect(summary.body.data.items[0]?.valueExact).toBe("2696999999999.7303");
    expect(summary.body.data.totals.byStatus[0]?.valueExact).toBe("2696999999999.7303");
  });
});

describe("a stock level's ceiling", () => {
  it("refuses with 409 an adjustment that would hold more than 1,000,000,000 units, and changes nothing", async () => {
    const tenant = await createTenant();
    const { locationId } = await stockedLocation(tenant);
    const product = await createProduct(tenant);
    await adjustStock(tenant, product.id, locationId, MAX_ON_HAND);
    const res = await call("POST", "/inventory/adjustments", {
      headers: tenant.admin,
      body: { productId: product.id, locationId, quantity: 1, reason: "found" },
    });
    expect(res.status).toBe(409);
    expect(res.body.errors).toEqual([
      "quantity: a stock level holds at most 1000000000 units; this location holds 1000000000",
    ]);
    expect(await levelsWithLedger(tenant)).toMatchObject([{ onHand: MAX_ON_HAND, ledger: MAX_ON_HAND }]);
  });

  it("refuses a transfer into a full level and a receipt into one, changing nothing", async () => {
    const tenant = await createTenant();
    const { warehouseId, locationId: full } = await stockedLocation(tenant);
    const source = (await createLocation(tenant, warehouseId)).id;
    const product = await createProduct(tenant);
    await adjustStock(tenant, product.id, full, MAX_ON_HAND - 5);
    await adjustStock(tenant, product.id, source, 10);
    const transfer = await call("POST", "/inventory/transfers", {
      headers: tenant.admin,
      body: { productId: product.id, fromLocationId: source, toLocationId: full, quantity: 6 },
    });
    expect(transfer.status).toBe(409);
    expect(transfer.body.errors).toEqual([
      "quantity: a stock level holds at most 1000000000 units; this location holds 999999995",
    ]);
    const order = await purchaseOrder(tenant, warehouseId, [{ productId: product.id, quantity: 6 }]);
    const id = order.body.data.id;
    expect(
      (await call("PATCH", `/orders/${id}/status`, { headers: tenant.admin, body: { status: "ordered" } }))
        .status,
    ).toBe(200);
    const receipt = await call("POST", `/orders/${id}/receive`, {
      headers: tenant.admin,
      body: { lines: [{ lineId: order.body.data.lines[0]!.id, quantity: 6, locationId: full }] },
    });
    expect(receipt.status).toBe(409);
    expect(receipt.body.errors).toEqual([
      "lines[0].quantity: a stock level holds at most 1000000000 units; this location holds 999999995",
    ]);
    expect(await levelsWithLedger(tenant)).toMatchObject(
      expect.arrayContaining([
        expect.objectContaining({ locationId: full, onHand: MAX_ON_HAND - 5, ledger: MAX_ON_HAND - 5 }),
        expect.objectContaining({ locationId: source, onHand: 10, ledger: 10 }),
      ]),
    );
  });
});
