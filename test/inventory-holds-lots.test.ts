import { beforeAll, describe, expect, it } from "vitest";
import { levelsIn } from "./support/api-types";
import {
  createLocation,
  createProduct,
  day,
  fourLots,
  receiveLot,
  salesOrder,
  type TestTenant,
  tenantWithWarehouse,
} from "./support/builders";
import { checkedStockOf } from "./support/database";
import { call } from "./support/http";

// Holds of lot-tracked stock go through the same reservation module as order lines (src/stock/reservations.ts):
// first-expiring-first-out, never an expired lot, an optional lot pin, and the lots kept when an order consumes them.

let tenant: TestTenant;
let warehouseId: string;

beforeAll(async () => {
  ({ tenant, warehouseId } = await tenantWithWarehouse());
});

const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString();

const hold = (body: Record<string, unknown>) =>
  call("POST", "/inventory/holds", { headers: tenant.admin, body: { expiresAt: inAnHour(), ...body } });

const lotTracked = async () => (await createProduct(tenant, { tracking: "lot" })).id;
const newLocation = async () => (await createLocation(tenant, warehouseId)).id;

/** Held or reserved per lot number, and on hand, as the stock list shows them. */
async function byLot(productId: string) {
  const res = await call("GET", `/inventory/stock?productId=${productId}&pageSize=100`, {
    headers: tenant.admin,
  });
  const out: Record<string, { onHand: number; reserved: number }> = {};
  for (const l of res.body.data.items) {
    if (!("reserved" in l) || l.lotNumber === null)
      throw new Error("a current level of a lot-tracked product");
    const prior = out[l.lotNumber] ?? { onHand: 0, reserved: 0 };
    out[l.lotNumber] = { onHand: prior.onHand + l.onHand, reserved: prior.reserved + l.reserved };
  }
  return out;
}

const lotsOf = (allocations: readonly { lotNumber: string | null; quantity: number }[]) =>
  allocations.map((a) => [a.lotNumber, a.quantity]);

describe("holds of lot-tracked stock", () => {
  it("hold first-expiring-first-out across locations, never from an expired lot, and show their lots", async () => {
    const { productId, b } = await fourLots(tenant, warehouseId);
    const res = await hold({ productId, quantity: 8 });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(lotsOf(res.body.data.allocations)).toEqual([
      ["SOON", 5],
      ["LATE", 3],
    ]);
    expect(res.body.data.allocations[0]).toMatchObject({
      locationId: b,
      lotId: expect.any(String),
      expiresAt: day(10),
    });
    const got = await call("GET", `/inventory/holds/${res.body.data.id}`, { headers: tenant.admin });
    expect(got.body.data.allocations).toEqual(res.body.data.allocations);
    expect(await byLot(productId)).toEqual({
      SOON: { onHand: 5, reserved: 5 },
      LATE: { onHand: 5, reserved: 3 },
      GONE: { onHand: 5, reserved: 0 },
      NEVER: { onHand: 5, reserved: 0 },
    });
    // 2 LATE and 5 NEVER are left; the expired lot's 5 are never offered.
    const short = await hold({ productId, quantity: 8 });
    expect(short.status).toBe(409);
    expect(short.body.message).toBe(
      "Insufficient stock: requested 8, available 7 (expired lots are never held)",
    );

    // Releasing gives back exactly the lots it held.
    expect(
      (await call("DELETE", `/inventory/holds/${res.body.data.id}`, { headers: tenant.admin })).status,
    ).toBe(200);
    const levels = await checkedStockOf(tenant, productId);
    expect(levels.every((l) => l.reserved === 0)).toBe(true);
  });

  it("pin a lot with lotNumber, and refuse an expired, unknown or untracked pin", async () => {
    const productId = await lotTracked();
    const location = await newLocation();
    await receiveLot(tenant, productId, location, 5, { lotNumber: "EARLY", expiresAt: day(5) });
    await receiveLot(tenant, productId, location, 5, { lotNumber: "PINNED", expiresAt: day(50) });
    await receiveLot(tenant, productId, location, 5, { lotNumber: "OLD", expiresAt: day(-1) });
    const pinned = await hold({ productId, quantity: 4, lotNumber: "PINNED" });
    expect(pinned.status).toBe(201);
    expect(lotsOf(pinned.body.data.allocations)).toEqual([["PINNED", 4]]);
    const more = await hold({ productId, quantity: 2, lotNumber: "PINNED" });
    expect(more.status).toBe(409);
    expect(more.body.message).toBe(
      "Insufficient stock of lot PINNED: requested 2, available 1 (expired lots are never held)",
    );
    const expired = await hold({ productId, quantity: 1, lotNumber: "OLD" });
    expect(expired.status).toBe(409);
    expect(expired.body.message).toMatch(/^Insufficient stock of lot OLD: requested 1, available 0/);
    const unknown = await hold({ productId, quantity: 1, lotNumber: "NONE" });
    expect(unknown.status).toBe(409);
    expect(unknown.body.errors).toEqual([expect.stringMatching(/^lotNumber: product .* has no lot NONE$/)]);
    const untracked = (await createProduct(tenant)).id;
    const wrong = await hold({ productId: untracked, quantity: 1, lotNumber: "X" });
    expect(wrong.status).toBe(400);
    expect(wrong.body.errors).toEqual([expect.stringMatching(/^lotNumber: product .* is not lot-tracked$/)]);
    expect(await byLot(productId)).toMatchObject({ PINNED: { reserved: 4 }, EARLY: { reserved: 0 } });
  });

  it("keep their lots when an order line consumes them; a line pinned to another lot is refused", async () => {
    const productId = await lotTracked();
    const [a, b] = [await newLocation(), await newLocation()];
    await receiveLot(tenant, productId, a, 3, { lotNumber: "FIRST", expiresAt: day(5) });
    await receiveLot(tenant, productId, b, 6, { lotNumber: "SECOND", expiresAt: day(30) });
    const held = (await hold({ productId, quantity: 6 })).body.data;
    expect(lotsOf(held.allocations)).toEqual([
      ["FIRST", 3],
      ["SECOND", 3],
    ]);
    const otherLot = await salesOrder(tenant, [
      { productId, quantity: 1, holdId: held.id, lotNumber: "SECOND" },
    ]);
    expect(otherLot.status).toBe(409);
    expect(otherLot.body.errors).toEqual([`lines[0].holdId: hold ${held.id} holds stock outside lot SECOND`]);

    // Taking less than held keeps the first-expiring lots; the rest goes back.
    const order = await salesOrder(tenant, [{ productId, quantity: 4, holdId: held.id }]);
    expect(order.status, JSON.stringify(order.body)).toBe(201);
    expect(lotsOf(order.body.data.lines[0]?.lots ?? [])).toEqual([
      ["FIRST", 3],
      ["SECOND", 1],
    ]);
    expect(await byLot(productId)).toEqual({
      FIRST: { onHand: 3, reserved: 3 },
      SECOND: { onHand: 6, reserved: 1 },
    });
    await checkedStockOf(tenant, productId);
  });

  it("never oversell a lot when holds and orders race for it", async () => {
    const productId = await lotTracked();
    const [a, b] = [await newLocation(), await newLocation()];
    await receiveLot(tenant, productId, a, 4, { lotNumber: "R1", expiresAt: day(20) });
    await receiveLot(tenant, productId, b, 3, { lotNumber: "R2", expiresAt: day(40) });
    await receiveLot(tenant, productId, a, 3, { lotNumber: "R3" });
    await receiveLot(tenant, productId, b, 4, { lotNumber: "R0", expiresAt: day(-2) });
    const results = await Promise.all(
      Array.from({ length: 24 }, (_, i) => {
        const pin = i % 4 === 0 ? { lotNumber: "R2" } : {};
        return i % 2 === 0
          ? hold({ productId, quantity: 1, ...pin })
          : salesOrder(tenant, [{ productId, quantity: 1, ...pin }]);
      }),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.every((s) => s === 201 || s === 409)).toBe(true);
    // 10 unexpired units (R0 expired): exactly 10 succeed, and every unexpired lot is fully reserved.
    expect(statuses.filter((s) => s === 201)).toHaveLength(10);
    const lots = await byLot(productId);
    expect(lots).toEqual({
      R1: { onHand: 4, reserved: 4 },
      R2: { onHand: 3, reserved: 3 },
      R3: { onHand: 3, reserved: 3 },
      R0: { onHand: 4, reserved: 0 },
    });
    await checkedStockOf(tenant, productId);
  });
});

describe("stock as of an instant, per lot", () => {
  it("shows a tracked product's lots as they were, and filters by lot", async () => {
    const productId = await lotTracked();
    const location = await newLocation();
    await receiveLot(tenant, productId, location, 5, { lotNumber: "ASOF-A", expiresAt: day(20) });
    await receiveLot(tenant, productId, location, 7, { lotNumber: "ASOF-B" });
    const between = new Date().toISOString();
    await new Promise((resolve) => setTimeout(resolve, 5));
    await receiveLot(tenant, productId, location, -2, { lotNumber: "ASOF-A" });
    await receiveLot(tenant, productId, location, 4, { lotNumber: "ASOF-C", expiresAt: day(90) });

    const asOf = async (filter = "") => {
      const res = await call("GET", `/inventory/stock?productId=${productId}&asOf=${between}${filter}`, {
        headers: tenant.admin,
      });
      expect(res.status).toBe(200);
      return levelsIn(res.body.data).map((l) => [l.lotNumber, l.onHand, l.expiresAt]);
    };
    // Ordered by lot expiry (no expiry last); ASOF-C did not exist yet.
    expect(await asOf()).toEqual([
      ["ASOF-A", 5, day(20)],
      ["ASOF-B", 7, null],
    ]);
    expect(await asOf("&lotNumber=ASOF-B")).toEqual([["ASOF-B", 7, null]]);
    const current = await call("GET", `/inventory/stock?productId=${productId}&lotNumber=ASOF-A`, {
      headers: tenant.admin,
    });
    const lotId = levelsIn(current.body.data)[0]?.lotId;
    expect(await asOf(`&lotId=${lotId}`)).toEqual([["ASOF-A", 5, day(20)]]);
    const now = await call(
      "GET",
      `/inventory/stock?productId=${productId}&asOf=${new Date().toISOString()}`,
      {
        headers: tenant.admin,
      },
    );
    expect(levelsIn(now.body.data).map((l) => [l.lotNumber, l.onHand])).toEqual([
      ["ASOF-A", 3],
      ["ASOF-C", 4],
      ["ASOF-B", 7],
    ]);
  });
});
