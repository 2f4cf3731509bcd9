import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { levelsIn } from "./support/api-types";
import {
  adjustStock,
  createLocation,
  createProduct,
  createTenant,
  newBins,
  scopedKey,
  stockedProduct,
  type TestTenant,
  tenantWithWarehouse,
} from "./support/builders";
import { call } from "./support/http";

let tenant: TestTenant;
let warehouseId: string;
beforeAll(async () => {
  ({ tenant, warehouseId } = await tenantWithWarehouse());
});

interface Movement {
  locationId: string;
  delta: number;
  createdAt: string;
}

const shift = (iso: string, ms: number) => new Date(Date.parse(iso) + ms).toISOString();

/** onHand per location at `asOf`, as the API answers it (absent: the level had no stock history yet). */
async function stockAsOf(productId: string, asOf: string): Promise<Record<string, number>> {
  const res = await call("GET", `/inventory/stock?productId=${productId}&asOf=${asOf}&pageSize=100`, {
    headers: tenant.admin,
  });
  expect(res.status).toBe(200);
  return Object.fromEntries(
    levelsIn(res.body.data).map((level: { locationId: string; onHand: number }) => [
      level.locationId,
      level.onHand,
    ]),
  );
}

/** The sum of the ledger up to and including `asOf`, per location that has rows by then. */
function ledgerSum(ledger: readonly Movement[], asOf: string): Record<string, number> {
  const sums: Record<string, number> = {};
  for (const m of ledger) if (m.createdAt <= asOf) sums[m.locationId] = (sums[m.locationId] ?? 0) + m.delta;
  return sums;
}

type Operation =
  | { kind: "adjust"; at: 0 | 1; quantity: number }
  | { kind: "transfer"; from: 0 | 1; quantity: number };

const operation: fc.Arbitrary<Operation> = fc.oneof(
  fc.record({
    kind: fc.constant("adjust" as const),
    at: fc.constantFrom(0 as const, 1 as const),
    quantity: fc.integer({ min: -5, max: 8 }).filter((q) => q !== 0),
  }),
  fc.record({
    kind: fc.constant("transfer" as const),
    from: fc.constantFrom(0 as const, 1 as const),
    quantity: fc.integer({ min: 1, max: 5 }),
  }),
);

describe("stock as of an instant", () => {
  it("equals the sum of the ledger up to that instant, for random operation sequences and at every boundary", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(operation, { minLength: 1, maxLength: 8 }), async (operations) => {
        const productId = (await createProduct(tenant)).id;
        const locations = await newBins(tenant, warehouseId, 2);
        const before = new Date().toISOString();
        for (const op of operations) {
          // Refused operations (more than is there) write nothing; that is part of the property.
          if (op.kind === "adjust") {
            await call("POST", "/inventory/adjustments", {
              headers: tenant.admin,
              body: { productId, locationId: locations[op.at], quantity: op.quantity, reason: "test" },
            });
          } else {
            await call("POST", "/inventory/transfers", {
              headers: tenant.admin,
              body: {
                productId,
                fromLocationId: locations[op.from],
                toLocationId: locations[1 - op.from],
                quantity: op.quantity,
              },
            });
          }
        }
        const ledger: Movement[] = (
          await call("GET", `/inventory/movements?productId=${productId}&pageSize=100`, {
            headers: tenant.admin,
          })
        ).body.data.items;
        const instants = new Set([before, ...ledger.flatMap((m) => [m.createdAt, shift(m.createdAt, -1)])]);
        for (const asOf of instants)
          expect(await stockAsOf(productId, asOf)).toEqual(ledgerSum(ledger, asOf));
      }),
      { numRuns: 8 },
    );
  });

  it("includes a movement exactly at its timestamp and shows levels as they were, with the current ones unchanged", async () => {
    const productId = (await createProduct(tenant)).id;
    const [a = "", b = ""] = await newBins(tenant, warehouseId, 2);
    const first = (await adjustStock(tenant, productId, a, 10)).movement;
    const second = (await adjustStock(tenant, productId, a, -4)).movement;
    await adjustStock(tenant, productId, b, 7);
    expect(await stockAsOf(productId, first.createdAt)).toEqual({ [a]: 10 });
    expect(await stockAsOf(productId, shift(second.createdAt, -1))).toEqual({ [a]: 10 });
    expect(await stockAsOf(productId, second.createdAt)).toEqual({ [a]: 6 });
    const res = await call("GET", `/inventory/stock?productId=${productId}&asOf=${second.createdAt}`, {
      headers: tenant.admin,
    });
    expect(res.body.data).toMatchObject({ totalCount: 1, page: 1 });
    expect(res.body.data.items[0]).toMatchObject({
      productId,
      locationId: a,
      onHand: 6,
      asOf: second.createdAt,
      lastMovementAt: second.createdAt,
    });
    const now = await call("GET", `/inventory/stock?productId=${productId}`, { headers: tenant.admin });
    expect(
      levelsIn(now.body.data)
        .map((l: { onHand: number }) => l.onHand)
        .sort(),
    ).toEqual([6, 7]);
  });

  it("pages levels as they were in the current list's order, with a total that leaves out levels created since", async () => {
    const { tenant: t, warehouseId: wh } = await tenantWithWarehouse();
    const [a1, a2] = [
      (await createLocation(t, wh, { code: "ASOF-1" })).id,
      (await createLocation(t, wh, { code: "ASOF-2" })).id,
    ];
    const [p1, p2, p3] = [
      (await createProduct(t, { sku: "ASOF-P1" })).id,
      (await createProduct(t, { sku: "ASOF-P2", tracking: "lot" })).id,
      (await createProduct(t, { sku: "ASOF-P3" })).id,
    ];
    const lotIn = (lotNumber: string, expiresAt: string, quantity: number) =>
      call("POST", "/inventory/adjustments", {
        headers: t.admin,
        body: { productId: p2, locationId: a1, quantity, reason: "test", lotNumber, expiresAt },
      });
    await adjustStock(t, p1, a2, 3);
    await adjustStock(t, p1, a1, 2);
    expect((await lotIn("LOT-LATE", "2031-01-01", 4)).status).toBe(201);
    expect((await lotIn("LOT-SOON", "2030-01-01", 1)).status).toBe(201);
    const asOf = (await adjustStock(t, p3, a1, 5)).movement.createdAt;
    await adjustStock(t, p1, a1, -1);
    await adjustStock(t, p3, a2, 6); // a level created after the instant
    const expected = [
      { productId: p1, locationId: a1, lotNumber: null, onHand: 2 },
      { productId: p1, locationId: a2, lotNumber: null, onHand: 3 },
      { productId: p2, locationId: a1, lotNumber: "LOT-SOON", onHand: 1 },
      { productId: p2, locationId: a1, lotNumber: "LOT-LATE", onHand: 4 },
      { productId: p3, locationId: a1, lotNumber: null, onHand: 5 },
    ];
    const pageOf = async (query: string) => {
      const res = await call("GET", `/inventory/stock?asOf=${asOf}&${query}`, { headers: t.admin });
      expect(res.status).toBe(200);
      return res.body.data;
    };
    const seen = [];
    for (const page of [1, 2, 3]) {
      const data = await pageOf(`pageSize=2&page=${page}`);
      expect(data).toMatchObject({ totalCount: 5, totalPages: 3, page, pageSize: 2 });
      seen.push(...data.items);
    }
    expect(seen).toEqual(expected.map((level) => expect.objectContaining({ ...level, asOf })));
    // Past the end: no items, the same total.
    expect(await pageOf("pageSize=2&page=4")).toMatchObject({ items: [], totalCount: 5, totalPages: 3 });
    // Filters count too: at the second location only p1 existed then.
    expect(await pageOf(`locationId=${a2}`)).toMatchObject({ totalCount: 1, items: [expected[1]] });
    expect(await pageOf(`locationId=${a2}&page=2`)).toMatchObject({ totalCount: 1, items: [] });
    // Before any movement: nothing, on every page.
    const before = shift(asOf, -60_000);
    const empty = await call("GET", `/inventory/stock?asOf=${before}&page=2`, { headers: t.admin });
    expect(empty.body.data).toMatchObject({ items: [], totalCount: 0, totalPages: 0 });
  });

  it("values past stock at the product's current cost in the valuation report, and says so", async () => {
    const t = await createTenant();
    const { productId, locationId: location } = await stockedProduct(t, 0, { product: { cost: 2.5 } });
    const first = (await adjustStock(t, productId, location, 10)).movement;
    const second = (await adjustStock(t, productId, location, -4)).movement;
    await call("PATCH", `/products/${productId}`, { headers: t.admin, body: { cost: 3 } });
    const valued = async (asOf: string) =>
      (await call("GET", `/reports/inventory-valuation?asOf=${asOf}`, { headers: t.admin })).body.data;
    const then = await valued(first.createdAt);
    expect(then.items).toMatchObject([{ productId, onHand: 10, unitCost: 3, value: 30 }]);
    expect(then.totals).toMatchObject({ onHand: 10, reserved: 0, value: 30 });
    expect(then.asOf).toBe(first.createdAt);
    expect(then.basis).toMatch(/valued at each product's current unit cost/);
    expect((await valued(second.createdAt)).totals).toMatchObject({ onHand: 6, value: 18 });
    expect((await valued(shift(first.createdAt, -1))).items).toEqual([]);
    const future = new Date(Date.now() + 60_000).toISOString();
    const refused = await call("GET", `/reports/inventory-valuation?asOf=${future}`, { headers: t.admin });
    expect(refused.status).toBe(400);
  });

  it("refuses an instant in the future (400), and needs read:inventory (401, 403)", async () => {
    const future = new Date(Date.now() + 60_000).toISOString();
    const res = await call("GET", `/inventory/stock?asOf=${future}`, { headers: tenant.admin });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual(["asOf: must not be in the future"]);
    expect((await call("GET", "/inventory/stock?asOf=yesterday", { headers: tenant.admin })).status).toBe(
      400,
    );
    const past = new Date(Date.now() - 1000).toISOString();
    expect((await call("GET", `/inventory/stock?asOf=${past}`)).status).toBe(401);
    const orders = await scopedKey(tenant, ["read:orders"]);
    expect((await call("GET", `/inventory/stock?asOf=${past}`, { headers: orders })).status).toBe(403);
  });
});
