import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { runSweeps } from "../src/scheduled";
import {
  createTenant,
  salesOrder,
  scopedKey,
  seedLocation,
  seedWarehouse,
  stockedProduct,
  type TestTenant,
} from "./support/builders";
import { openReservations, outboxEvents, stockOf, tenantDatabase } from "./support/database";
import { call } from "./support/http";

let tenant: TestTenant;
beforeAll(async () => {
  tenant = await createTenant();
});

const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString();

const hold = (body: Record<string, unknown>, headers = tenant.admin) =>
  call("POST", "/inventory/holds", { headers, body: { expiresAt: inAnHour(), ...body } });

/** What the sweep or a waiting client would see once `expiresAt` has passed (the clock moved on). */
async function expire(holdId: string) {
  await (await tenantDatabase(tenant.id))
    .prepare("update stock_holds set expires_at = ? where id = ?")
    .bind(new Date(Date.now() - 1000).toISOString(), holdId)
    .run();
}

/** The hold events of a hold, oldest first, as the outbox stores them. */
async function holdEvents(holdId: string) {
  const events = await outboxEvents(tenant, /^inventory\.hold_/);
  return events.filter((e) => e.payload.id === holdId).map((e) => ({ type: e.type, data: e.payload }));
}

/** Active holds plus open order reservations: what `reserved` must equal for the product. */
async function heldAndReserved(t: TestTenant, productId: string) {
  const row = await (await tenantDatabase(t.id))
    .prepare(
      `select coalesce(sum(a.quantity), 0) as total from stock_hold_allocations a
       join stock_holds h on h.id = a.hold_id and h.status = 'active' where a.tenant_id = ? and a.product_id = ?`,
    )
    .bind(t.id, productId)
    .first<{ total: number }>();
  return (row?.total ?? 0) + (await openReservations(t, productId));
}

describe("holds", () => {
  it("reserve available stock like an order, are listed and read, and emit inventory.hold_created", async () => {
    const { productId, locationId, warehouseId } = await stockedProduct(tenant, 10);
    const res = await hold({ productId, quantity: 4, reference: "cart-1" });
    expect(res.status).toBe(201);
    expect(res.headers.get("location")).toBe(`/api/v1/inventory/holds/${res.body.data.id}`);
    expect(res.body.data).toMatchObject({
      productId,
      quantity: 4,
      status: "active",
      reference: "cart-1",
      allocations: [{ locationId, warehouseId, quantity: 4 }],
      orderId: null,
      releasedAt: null,
    });
    expect(await stockOf(tenant, productId)).toMatchObject([{ onHand: 10, reserved: 4 }]);
    const got = await call("GET", `/inventory/holds/${res.body.data.id}`, { headers: tenant.admin });
    expect(got.body.data).toEqual(res.body.data);
    const listed = await call("GET", `/inventory/holds?reference=cart-1&productId=${productId}`, {
      headers: tenant.admin,
    });
    expect(listed.body.data.items).toEqual([res.body.data]);
    expect(await holdEvents(res.body.data.id)).toEqual([
      { type: "inventory.hold_created", data: res.body.data },
    ]);
  });

  it("refuse more than is available (409 stating it), unknown targets (404) and bad expiries (400)", async () => {
    const { productId, locationId } = await stockedProduct(tenant, 3);
    await salesOrder(tenant, [{ productId, quantity: 1 }]);
    const short = await hold({ productId, quantity: 3 });
    expect(short.status).toBe(409);
    expect(short.body.message).toBe("Insufficient stock: requested 3, available 2");
    const elsewhere = (await seedLocation(tenant, await seedWarehouse(tenant))).id;
    const none = await hold({ productId, quantity: 1, locationId: elsewhere });
    expect(none.body.message).toBe("Insufficient stock: requested 1, available 0");
    expect((await hold({ productId: crypto.randomUUID(), quantity: 1 })).status).toBe(404);
    const unknownLocation = await hold({ productId, quantity: 1, locationId: crypto.randomUUID() });
    expect(unknownLocation.status).toBe(404);
    expect(unknownLocation.body.message).toMatch(/^locationId: location .* not found$/);
    const past = await hold({ productId, quantity: 1, expiresAt: new Date(Date.now() - 1).toISOString() });
    expect(past.status).toBe(400);
    expect(past.body.errors).toEqual(["expiresAt: must be in the future"]);
    const tooLong = await hold({
      productId,
      quantity: 1,
      expiresAt: new Date(Date.now() + 8 * 86_400_000).toISOString(),
    });
    expect(tooLong.body.errors).toEqual(["expiresAt: must be at most 7 days ahead"]);
    const both = await hold({ productId, quantity: 1, locationId, warehouseId: crypto.randomUUID() });
    expect(both.status).toBe(400);
    expect(await stockOf(tenant, productId)).toMatchObject([{ onHand: 3, reserved: 1 }]);
  });

  it("release on DELETE (inventory.hold_released, reason released) exactly once", async () => {
    const { productId } = await stockedProduct(tenant, 5);
    const held = (await hold({ productId, quantity: 5 })).body.data;
    const released = await call("DELETE", `/inventory/holds/${held.id}`, { headers: tenant.admin });
    expect(released.status).toBe(200);
    expect(released.body.data).toMatchObject({ status: "released", releasedAt: expect.any(String) });
    expect(await stockOf(tenant, productId)).toMatchObject([{ onHand: 5, reserved: 0 }]);
    const again = await call("DELETE", `/inventory/holds/${held.id}`, { headers: tenant.admin });
    expect(again.status).toBe(409);
    const events = await holdEvents(held.id);
    expect(events.map((e) => e.type)).toEqual(["inventory.hold_created", "inventory.hold_released"]);
    expect(events[1]?.data).toMatchObject({ id: held.id, status: "released", reason: "released" });
    const listed = await call("GET", `/inventory/holds?productId=${productId}&status=released`, {
      headers: tenant.admin,
    });
    expect(listed.body.data.items.map((h: { id: string }) => h.id)).toEqual([held.id]);
  });

  it("expire: shown expired at once, the stock given back by the minute's sweep (reason expired)", async () => {
    const { productId } = await stockedProduct(tenant, 5);
    const held = (await hold({ productId, quantity: 2 })).body.data;
    await expire(held.id);
    const shown = await call("GET", `/inventory/holds/${held.id}`, { headers: tenant.admin });
    expect(shown.body.data).toMatchObject({ status: "expired", releasedAt: null });
    expect(await stockOf(tenant, productId)).toMatchObject([{ reserved: 2 }]);
    await runSweeps(env);
    expect(await stockOf(tenant, productId)).toMatchObject([{ onHand: 5, reserved: 0 }]);
    const after = await call("GET", `/inventory/holds/${held.id}`, { headers: tenant.admin });
    expect(after.body.data).toMatchObject({ status: "expired", releasedAt: expect.any(String) });
    const events = await holdEvents(held.id);
    expect(events.map((e) => e.data.reason ?? e.type)).toEqual(["inventory.hold_created", "expired"]);
  });

  it("never block a reservation once expired: an order, a hold and a removal release them in their own batch", async () => {
    for (const take of [
      (productId: string) => salesOrder(tenant, [{ productId, quantity: 5 }]),
      (productId: string) => hold({ productId, quantity: 5 }),
      async (productId: string, locationId: string) =>
        call("POST", "/inventory/adjustments", {
          headers: tenant.admin,
          body: { productId, locationId, quantity: -5, reason: "damaged" },
        }),
    ]) {
      const { productId, locationId } = await stockedProduct(tenant, 5);
      const held = (await hold({ productId, quantity: 5 })).body.data;
      expect((await hold({ productId, quantity: 1 })).status).toBe(409);
      await expire(held.id);
      expect((await take(productId, locationId)).status).toBe(201);
      const [level] = await stockOf(tenant, productId);
      expect(level?.reserved).toBe(await heldAndReserved(tenant, productId));
      const events = await holdEvents(held.id);
      expect(events[1]?.data).toMatchObject({ status: "expired", reason: "expired" });
    }
  });

  it("become an order's reservation through a line's holdId (the rest released, reason consumed)", async () => {
    const { productId } = await stockedProduct(tenant, 10);
    const held = (await hold({ productId, quantity: 6 })).body.data;
    const order = await salesOrder(tenant, [{ productId, quantity: 4, holdId: held.id }]);
    expect(order.status).toBe(201);
    expect(await stockOf(tenant, productId)).toMatchObject([{ onHand: 10, reserved: 4 }]);
    expect(await openReservations(tenant, productId)).toBe(4);
    const consumed = (await call("GET", `/inventory/holds/${held.id}`, { headers: tenant.admin })).body.data;
    expect(consumed).toMatchObject({ status: "consumed", orderId: order.body.data.id });
    const events = await holdEvents(held.id);
    expect(events[1]?.data).toMatchObject({ reason: "consumed", orderId: order.body.data.id });
    // A consumed hold cannot be used again.
    const again = await salesOrder(tenant, [{ productId, quantity: 1, holdId: held.id }]);
    expect(again.status).toBe(409);
    expect(again.body.errors).toEqual([`lines[0].holdId: hold ${held.id} is consumed`]);
  });

  it("refuse a holdId for more than held, another product, or unknown, changing nothing", async () => {
    const { productId } = await stockedProduct(tenant, 10);
    const other = await stockedProduct(tenant, 10, { product: { sku: `OTHER-${crypto.randomUUID()}` } });
    const held = (await hold({ productId, quantity: 2 })).body.data;
    const more = await salesOrder(tenant, [{ productId, quantity: 3, holdId: held.id }]);
    expect(more.status).toBe(409);
    expect(more.body.errors).toEqual([`lines[0].holdId: hold ${held.id} holds 2, the line asks 3`]);
    const wrong = await salesOrder(tenant, [{ productId: other.productId, quantity: 1, holdId: held.id }]);
    expect(wrong.status).toBe(409);
    const otherSku = (await call("GET", `/products/${other.productId}`, { headers: tenant.admin })).body.data
      .sku;
    expect(wrong.body.errors).toEqual([
      `lines[0].holdId: hold ${held.id} is not a hold of product ${otherSku} (it holds another product)`,
    ]);
    const unknown = await salesOrder(tenant, [{ productId, quantity: 1, holdId: crypto.randomUUID() }]);
    expect(unknown.status).toBe(404);
    const twice = await salesOrder(tenant, [
      { productId, quantity: 1, holdId: held.id },
      { productId, quantity: 1, holdId: held.id },
    ]);
    expect(twice.status).toBe(400);
    expect(await stockOf(tenant, productId)).toMatchObject([{ onHand: 10, reserved: 2 }]);
  });
});

describe("holds under concurrency", () => {
  it("40 holds racing 40 orders for 25 units: exactly 25 succeed, reserved equals holds plus reservations", async () => {
    const { productId } = await stockedProduct(tenant, 25);
    const results = await Promise.all(
      Array.from({ length: 80 }, (_, i) =>
        i % 2 ? hold({ productId, quantity: 1 }) : salesOrder(tenant, [{ productId, quantity: 1 }]),
      ),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(25);
    expect(statuses.filter((s) => s !== 201).every((s) => s === 409)).toBe(true);
    const [level] = await stockOf(tenant, productId);
    expect(level).toMatchObject({ onHand: 25, reserved: 25 });
    expect(await heldAndReserved(tenant, productId)).toBe(25);
  });

  it("a release racing the order that consumes the hold: exactly one wins, nothing is counted twice", async () => {
    const { productId } = await stockedProduct(tenant, 3);
    const pairs = await Promise.all(
      Array.from({ length: 3 }, async () => {
        const held = (await hold({ productId, quantity: 1 })).body.data;
        return Promise.all([
          call("DELETE", `/inventory/holds/${held.id}`, { headers: tenant.admin }),
          salesOrder(tenant, [{ productId, quantity: 1, holdId: held.id }]),
        ]);
      }),
    );
    for (const [released, ordered] of pairs) {
      expect([released.status, ordered.status].filter((s) => s === 200 || s === 201)).toHaveLength(1);
    }
    const [level] = await stockOf(tenant, productId);
    expect(level?.reserved).toBe(await heldAndReserved(tenant, productId));
    expect(level?.reserved).toBe(await openReservations(tenant, productId));
  });
});

describe("holds access", () => {
  it("need a credential (401) and the inventory scopes (403)", async () => {
    expect((await call("GET", "/inventory/holds")).status).toBe(401);
    expect((await call("POST", "/inventory/holds", { body: {} })).status).toBe(401);
    const reader = await scopedKey(tenant, ["read:inventory"]);
    const orders = await scopedKey(tenant, ["read:orders", "write:orders"]);
    const { productId } = await stockedProduct(tenant, 2);
    expect((await hold({ productId, quantity: 1 }, reader)).status).toBe(403);
    expect((await call("GET", "/inventory/holds", { headers: orders })).status).toBe(403);
    const held = (await hold({ productId, quantity: 1 })).body.data;
    expect((await call("GET", `/inventory/holds/${held.id}`, { headers: orders })).status).toBe(403);
    expect((await call("DELETE", `/inventory/holds/${held.id}`, { headers: reader })).status).toBe(403);
    expect((await call("GET", `/inventory/holds/${held.id}`, { headers: reader })).status).toBe(200);
  });

  it("answer 404 for another tenant's hold, also when an order line names it", async () => {
    const { productId } = await stockedProduct(tenant, 2);
    const held = (await hold({ productId, quantity: 1 })).body.data;
    const other = await createTenant();
    expect((await call("GET", `/inventory/holds/${held.id}`, { headers: other.admin })).status).toBe(404);
    expect((await call("DELETE", `/inventory/holds/${held.id}`, { headers: other.admin })).status).toBe(404);
    const theirs = await stockedProduct(other, 2);
    const order = await salesOrder(other, [{ productId: theirs.productId, quantity: 1, holdId: held.id }]);
    expect(order.status).toBe(404);
    const listed = await call("GET", "/inventory/holds", { headers: other.admin });
    expect(listed.body.data.items).toEqual([]);
    expect(await stockOf(tenant, productId)).toMatchObject([{ reserved: 1 }]);
  });
});
