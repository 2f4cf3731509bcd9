import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import {
  adjustStock,
  createLocation,
  createProduct,
  createTenant,
  newBins,
  scopedKey,
  type TestTenant,
  tenantWithWarehouse,
} from "./support/builders";
import { checkedStockOf, stockOf } from "./support/database";
import { call } from "./support/http";

let tenant: TestTenant;
let warehouseId: string;
beforeAll(async () => {
  ({ tenant, warehouseId } = await tenantWithWarehouse());
});

const hopsOf = (response: { headers: Headers }) =>
  Number(/hops=(\d+)/.exec(response.headers.get("X-D1-Stats") ?? "")?.[1]);

const transfer = (body: Record<string, unknown>, headers = tenant.admin) =>
  call("POST", "/inventory/transfers", { headers, body });

async function twoLocations() {
  const productId = (await createProduct(tenant)).id;
  const [a = "", b = ""] = await newBins(tenant, warehouseId, 2);
  return { productId, a, b };
}

describe("transfers", () => {
  it("move stock between two locations atomically, with two ledger rows sharing the transfer id", async () => {
    const { productId, a, b } = await twoLocations();
    await adjustStock(tenant, productId, a, 10);
    const res = await transfer({
      productId,
      fromLocationId: a,
      toLocationId: b,
      quantity: 4,
      notes: "replenish",
    });
    expect(res.status).toBe(201);
    const { transferId, from, to, movements } = res.body.data;
    expect(from).toMatchObject({ locationId: a, onHand: 6, available: 6 });
    expect(to).toMatchObject({ locationId: b, onHand: 4, available: 4 });
    expect(movements).toHaveLength(2);
    expect(movements.every((m) => m.referenceId === transferId)).toBe(true);
    const ledger = await call("GET", `/inventory/movements?reference=${transferId}`, {
      headers: tenant.admin,
    });
    expect(ledger.body.data.items.map((m: { delta: number }) => m.delta).sort()).toEqual([-4, 4]);
  });

  it("cost the key's lookup and one batch: two sequential round trips, two D1 calls", async () => {
    const { productId, a, b } = await twoLocations();
    await adjustStock(tenant, productId, a, 10);
    const moved = await transfer({ productId, fromLocationId: a, toLocationId: b, quantity: 4 });
    expect(moved.status).toBe(201);
    expect(hopsOf(moved)).toBe(2);
    expect(moved.headers.get("X-D1-Stats")).toContain("calls=2;");
    const levels = await checkedStockOf(tenant, productId);
    expect(levels).toHaveLength(2);
    expect(levels).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ locationId: a, onHand: 6 }),
        expect.objectContaining({ locationId: b, onHand: 4 }),
      ]),
    );
  });

  it("refuse the same location twice (400), too much (409) and unknown locations (404)", async () => {
    const { productId, a, b } = await twoLocations();
    await adjustStock(tenant, productId, a, 2);
    const same = await transfer({ productId, fromLocationId: a, toLocationId: a, quantity: 1 });
    expect(same.status).toBe(400);
    expect(same.body.errors).toEqual(["toLocationId: must differ from fromLocationId"]);
    const tooMuch = await transfer({ productId, fromLocationId: a, toLocationId: b, quantity: 3 });
    expect(tooMuch.status).toBe(409);
    expect(tooMuch.body.message).toBe("Insufficient stock: requested 3, available 2");
    const empty = await transfer({ productId, fromLocationId: b, toLocationId: a, quantity: 1 });
    expect(empty.status).toBe(409);
    const unknown = await transfer({
      productId,
      fromLocationId: a,
      toLocationId: crypto.randomUUID(),
      quantity: 1,
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toMatch(/^locationId: location .* not found$/);
    expect(await stockOf(tenant, productId)).toEqual([
      expect.objectContaining({ locationId: a, onHand: 2, ledger: 2 }),
    ]);
  });

  it("50 transfers A->B racing 50 B->A keep the total and never go negative", async () => {
    const { productId, a, b } = await twoLocations();
    await adjustStock(tenant, productId, a, 20);
    await adjustStock(tenant, productId, b, 20);
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        transfer({ productId, fromLocationId: i % 2 ? a : b, toLocationId: i % 2 ? b : a, quantity: 3 }),
      ),
    );
    expect(results.every((r) => r.status === 201 || r.status === 409)).toBe(true);
    const levels = await stockOf(tenant, productId);
    expect(levels.reduce((sum, l) => sum + l.onHand, 0)).toBe(40);
    for (const level of levels) {
      expect(level.onHand).toBeGreaterThanOrEqual(0);
      expect(level.ledger).toBe(level.onHand);
    }
  });

  it("need write:inventory; another tenant's product is 404", async () => {
    const { productId, a, b } = await twoLocations();
    const reader = await scopedKey(tenant, ["read:inventory"]);
    expect(
      (await transfer({ productId, fromLocationId: a, toLocationId: b, quantity: 1 }, reader)).status,
    ).toBe(403);
    const other = await createTenant();
    expect(
      (await transfer({ productId, fromLocationId: a, toLocationId: b, quantity: 1 }, other.admin)).status,
    ).toBe(404);
  });
});

describe("stock invariants under random sequences (property)", () => {
  it("after every adjustment or transfer: onHand >= 0, reserved <= onHand, ledger = onHand, total = sum of accepted deltas", async () => {
    const productId = (await createProduct(tenant)).id;
    const locations = await newBins(tenant, warehouseId, 3);
    const step = fc.oneof(
      fc.record({
        kind: fc.constant("adjust" as const),
        at: fc.nat(2),
        quantity: fc.integer({ min: -8, max: 8 }).filter((q) => q !== 0),
      }),
      fc.record({
        kind: fc.constant("transfer" as const),
        from: fc.nat(2),
        to: fc.nat(2),
        quantity: fc.integer({ min: 1, max: 8 }),
      }),
    );
    let expectedTotal = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 8 }), async (steps) => {
        for (const s of steps) {
          if (s.kind === "adjust") {
            const res = await call("POST", "/inventory/adjustments", {
              headers: tenant.admin,
              body: { productId, locationId: locations[s.at], quantity: s.quantity, reason: "property" },
            });
            expect([201, 409]).toContain(res.status);
            if (res.status === 201) expectedTotal += s.quantity;
          } else {
            const res = await transfer({
              productId,
              fromLocationId: locations[s.from],
              toLocationId: locations[s.to],
              quantity: s.quantity,
            });
            expect([201, 400, 409]).toContain(res.status);
            expect(res.status === 400).toBe(s.from === s.to);
          }
          const levels = await checkedStockOf(tenant, productId);
          expect(levels.reduce((sum, l) => sum + l.onHand, 0)).toBe(expectedTotal);
        }
      }),
      { numRuns: 25 },
    );
  });
});

describe("stock and ledger reads", () => {
  it("filter stock by product, location, warehouse, sku and reorder point", async () => {
    const { id: productId, sku } = await createProduct(tenant, { reorderPoint: 10 });
    const location = (await createLocation(tenant, warehouseId)).id;
    await adjustStock(tenant, productId, location, 4);
    for (const query of [`productId=${productId}`, `sku=${sku}`, `locationId=${location}`]) {
      const res = await call("GET", `/inventory/stock?${query}`, { headers: tenant.admin });
      expect(res.status).toBe(200);
      expect(res.body.data.items).toEqual([
        expect.objectContaining({
          productId,
          sku,
          locationId: location,
          onHand: 4,
          reserved: 0,
          available: 4,
        }),
      ]);
    }
    const low = await call(
      "GET",
      `/inventory/stock?belowReorderPoint=true&warehouseId=${warehouseId}&pageSize=100`,
      {
        headers: tenant.admin,
      },
    );
    expect(low.body.data.items.map((l: { productId: string }) => l.productId)).toContain(productId);
    expect(low.body.data.items.every((l) => "available" in l && l.available <= 10)).toBe(true);
    const atLocation = await call("GET", `/locations/${location}/inventory`, { headers: tenant.admin });
    expect(atLocation.body.data).toMatchObject({
      totalCount: 1,
      items: [expect.objectContaining({ productId })],
    });
    expect(
      (await call("GET", `/inventory/stock?belowReorderPoint=maybe`, { headers: tenant.admin })).status,
    ).toBe(400);
  });

  it("list the ledger newest first with filters; other tenants see none of it", async () => {
    const productId = (await createProduct(tenant)).id;
    const location = (await createLocation(tenant, warehouseId)).id;
    await adjustStock(tenant, productId, location, 5, "received");
    await adjustStock(tenant, productId, location, -2, "damaged");
    const res = await call("GET", `/inventory/movements?productId=${productId}`, { headers: tenant.admin });
    expect(res.body.data.items.map((m: { delta: number }) => m.delta)).toEqual([-2, 5]);
    const damaged = await call("GET", `/inventory/movements?productId=${productId}&reason=damaged`, {
      headers: tenant.admin,
    });
    expect(damaged.body.data.totalCount).toBe(1);
    const today = new Date().toISOString().slice(0, 10);
    const dated = await call("GET", `/inventory/movements?productId=${productId}&from=${today}&to=${today}`, {
      headers: tenant.admin,
    });
    expect(dated.body.data.totalCount).toBe(2);
    expect((await call("GET", "/inventory/movements?from=yesterday", { headers: tenant.admin })).status).toBe(
      400,
    );
    const other = await createTenant();
    const foreign = await call("GET", `/inventory/movements?productId=${productId}`, {
      headers: other.admin,
    });
    expect(foreign.body.data.totalCount).toBe(0);
    expect((await call("GET", `/locations/${location}/inventory`, { headers: other.admin })).status).toBe(
      404,
    );
    expect((await call("GET", "/inventory/stock")).status).toBe(401);
    const ordersOnly = await scopedKey(tenant, ["read:orders"]);
    expect((await call("GET", "/inventory/stock", { headers: ordersOnly })).status).toBe(403);
  });
});
