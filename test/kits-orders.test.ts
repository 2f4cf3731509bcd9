import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import {
  adjustStock,
  createLocation,
  createProduct,
  createTenant,
  createWarehouse,
  salesOrder,
  scopedKey,
  setStatus,
  type TestTenant,
} from "./support/builders";
import { checkedStockOf, openReservations, outboxEvents } from "./support/database";
import { call } from "./support/http";

// Kits: a product sold as its components. It never holds stock; its availability is derived from its components';
// an order line for a kit reserves every component in the order's one batch (all or none); pick lists, shipping
// and cancelling serve the components as any product.

let tenant: TestTenant;
let warehouseId: string;
let bin: string;
beforeAll(async () => {
  tenant = await createTenant();
  warehouseId = (await createWarehouse(tenant)).id;
  bin = (await createLocation(tenant, warehouseId)).id;
});

/** Components stocked in `bin` (stock[i] units each), and a kit of them (quantities[i] each). */
async function kitOf(stock: number[], quantities: number[], overrides: Record<string, unknown> = {}) {
  const components = [];
  for (const units of stock) {
    const component = await createProduct(tenant, { reorderPoint: 0, ...overrides });
    if (units > 0) await adjustStock(tenant, component.id, bin, units);
    components.push(component);
  }
  const kit = await createProduct(tenant, {
    type: "kit",
    name: "Gift set",
    components: components.map((c, i) => ({ productId: c.id, quantity: quantities[i] })),
  });
  return { kit, components };
}

const kitStock = async (kitId: string, where = warehouseId) => {
  const res = await call("GET", `/inventory/stock?productId=${kitId}&warehouseId=${where}`, {
    headers: tenant.admin,
  });
  expect(res.status).toBe(200);
  return res.body.data?.items[0] as unknown as { available: number; components: { available: number }[] };
};

describe("a kit product", () => {
  it("shows its components, holds no stock, and is refused by stock writes (400)", async () => {
    const { kit, components } = await kitOf([10, 10], [2, 1]);
    expect(kit.type).toBe("kit");
    expect(kit.components).toEqual([
      { productId: components[0]?.id, quantity: 2 },
      { productId: components[1]?.id, quantity: 1 },
    ]);
    const adjusted = await call("POST", "/inventory/adjustments", {
      headers: tenant.admin,
      body: { productId: kit.id, locationId: bin, quantity: 1, reason: "received" },
    });
    expect(adjusted.status).toBe(400);
    expect(adjusted.body.errors?.[0]).toContain("is a kit: it never holds stock");
    const bought = await call("POST", "/orders/purchase", {
      headers: tenant.admin,
      body: { supplier: "Acme", warehouseId, lines: [{ productId: kit.id, quantity: 1, cost: 1 }] },
    });
    expect(bought.status).toBe(400);
    const batch = await call("POST", "/inventory/adjustments/batch", {
      headers: tenant.admin,
      body: { lines: [{ productId: kit.id, locationId: bin, quantity: 1, reason: "x" }] },
    });
    expect(batch.status).toBe(400);
    expect(await checkedStockOf(tenant, kit.id)).toEqual([]);
  });

  it("refuses a kit in a kit, itself, a missing component, no components and components on a stocked product", async () => {
    const { kit, components } = await kitOf([1], [1]);
    const create = (body: Record<string, unknown>) =>
      call("POST", "/products", {
        headers: tenant.admin,
        body: { sku: `K-${crypto.randomUUID()}`, name: "K", ...body },
      });
    const nested = await create({ type: "kit", components: [{ productId: kit.id, quantity: 1 }] });
    expect(nested.status).toBe(400);
    expect(nested.body.errors?.[0]).toContain("is a kit; a kit's components are stocked products");
    const self = await call("PATCH", `/products/${kit.id}`, {
      headers: tenant.admin,
      body: { components: [{ productId: kit.id, quantity: 1 }] },
    });
    expect(self.status).toBe(400);
    const missing = await create({
      type: "kit",
      components: [{ productId: crypto.randomUUID(), quantity: 1 }],
    });
    expect(missing.status).toBe(404);
    expect((await create({ type: "kit" })).status).toBe(400);
    expect((await create({ type: "kit", components: [] })).status).toBe(400);
    const stocked = await create({ components: [{ productId: components[0]?.id, quantity: 1 }] });
    expect(stocked.status).toBe(400);
    const tooMany = await create({
      type: "kit",
      components: Array.from({ length: 51 }, () => ({ productId: crypto.randomUUID(), quantity: 1 })),
    });
    expect(tooMany.status).toBe(400);
    const component = await call("DELETE", `/products/${components[0]?.id}`, { headers: tenant.admin });
    expect(component.status).toBe(409);
  });

  it("answers its availability per warehouse: the minimum over components of floor(available / quantity)", async () => {
    const { kit } = await kitOf([10, 7], [3, 2]);
    const level = await kitStock(kit.id);
    expect(level.available).toBe(3);
    expect(level.components.map((c) => c.available)).toEqual([10, 7]);
    const withBin = await call("GET", `/inventory/stock?productId=${kit.id}&locationId=${bin}`, {
      headers: tenant.admin,
    });
    expect(withBin.status).toBe(400);
  });
});

describe("a kit on a sales order", () => {
  it("reserves every component, lists them under the kit line when picked, and ships them", async () => {
    const { kit, components } = await kitOf([10, 10], [2, 1]);
    const res = await salesOrder(tenant, [{ productId: kit.id, quantity: 3, price: 25 }], { warehouseId });
    expect(res.status).toBe(201);
    const order = res.body.data;
    expect(order?.kitLines).toEqual([
      expect.objectContaining({ lineNo: 1, productId: kit.id, quantity: 3, price: 25, lineTotal: 75 }),
    ]);
    const kitLineId = order?.kitLines[0]?.id;
    expect(order?.lines.map((l) => [l.productId, l.quantity, l.kitLineId, l.price])).toEqual([
      [components[0]?.id, 6, kitLineId, 0],
      [components[1]?.id, 3, kitLineId, 0],
    ]);
    expect(order?.totals.total).toBe(75);
    expect(await openReservations(tenant, components[0]?.id as string)).toBe(6);
    expect((await kitStock(kit.id)).available).toBe(2);

    await setStatus(tenant, order?.id as string, { status: "confirmed" });
    const list = await call("POST", "/pick-lists", {
      headers: tenant.admin,
      body: { warehouseId, orderIds: [order?.id] },
    });
    expect(list.status).toBe(201);
    expect(list.body.data?.lines.map((l) => l.kit)).toEqual([
      { lineId: kitLineId, lineNo: 1, productId: kit.id },
      { lineId: kitLineId, lineNo: 1, productId: kit.id },
    ]);
    const read = await call("GET", `/pick-lists/${list.body.data?.id}`, { headers: tenant.admin });
    expect(read.body.data?.lines).toEqual(list.body.data?.lines);

    const shipped = await setStatus(tenant, order?.id as string, { status: "shipped" });
    expect(shipped.status).toBe(200);
    expect(shipped.body.data?.lines.map((l) => l.shippedQuantity)).toEqual([6, 3]);
    for (const component of components) expect(await openReservations(tenant, component.id)).toBe(0);
    const levels = await checkedStockOf(tenant, components[0]?.id as string);
    expect(levels.reduce((sum, l) => sum + l.onHand, 0)).toBe(4);
  });

  it("with a kit, packs and a plain line, costs two round trips: one read batch alongside the key's lookup, the write", async () => {
    const { kit, components } = await kitOf([10, 10], [2, 1]);
    const cased = await createProduct(tenant, {
      reorderPoint: 0,
      packagings: [{ code: "case", name: "Case of 6", quantity: 6 }],
    });
    await adjustStock(tenant, cased.id, bin, 12);
    const res = await call("POST", "/orders/sales", {
      headers: tenant.admin,
      body: {
        customerId: crypto.randomUUID(),
        shippingAddress: { street: "1 Hop St", city: "Trip", zip: "10000" },
        lines: [
          { productId: kit.id, quantity: 2, price: 25 },
          { productId: cased.id, packaging: "case", packs: 1, price: 30 },
          { productId: components[1]?.id, quantity: 1, price: 5 },
        ],
      },
    });
    expect(res.status).toBe(201);
    // The tenant's key was seen by this isolate in the set-up (test/orders-round-trips.test.ts: a new key's 3).
    expect(Number(/hops=(\d+)/.exec(res.headers.get("X-D1-Stats") ?? "")?.[1])).toBe(2);
    expect(res.headers.get("X-D1-Stats")).toContain("calls=3;");
    expect(await openReservations(tenant, components[0]?.id ?? "")).toBe(4);
    expect(await openReservations(tenant, components[1]?.id ?? "")).toBe(3);
    expect(await openReservations(tenant, cased.id)).toBe(6);
  });

  it("reserves nothing when one component is short: 409 naming the kit and the short component", async () => {
    const { kit, components } = await kitOf([10, 1], [1, 1]);
    const plain = await createProduct(tenant);
    await adjustStock(tenant, plain.id, bin, 5);
    const res = await salesOrder(
      tenant,
      [
        { productId: plain.id, quantity: 2 },
        { productId: kit.id, quantity: 2 },
      ],
      { warehouseId },
    );
    expect(res.status).toBe(409);
    expect(res.body.errors).toEqual([
      `lines[1]: kit ${kit.sku} component ${components[1]?.sku} (${components[1]?.id}) requested 2, available 1`,
    ]);
    for (const id of [plain.id, ...components.map((c) => c.id)])
      expect(await openReservations(tenant, id)).toBe(0);
  });

  it("cancelling gives every component back; a kit line cannot pin a lot or take a hold", async () => {
    const { kit, components } = await kitOf([4, 4], [1, 2]);
    const order = (await salesOrder(tenant, [{ productId: kit.id, quantity: 2 }])).body.data;
    expect(await openReservations(tenant, components[1]?.id as string)).toBe(4);
    expect((await setStatus(tenant, order?.id as string, { status: "cancelled" })).status).toBe(200);
    for (const c of components) expect(await openReservations(tenant, c.id)).toBe(0);
    const pinned = await salesOrder(tenant, [{ productId: kit.id, quantity: 1, lotNumber: "L1" }]);
    expect(pinned.status).toBe(400);
    expect(pinned.body.errors).toEqual(["lines[0].lotNumber: a kit's line cannot pin a lot"]);
  });

  it("fires a component's low-stock event as for any product", async () => {
    const { kit, components } = await kitOf([5, 5], [1, 1], { reorderPoint: 3 });
    expect((await salesOrder(tenant, [{ productId: kit.id, quantity: 3 }])).status).toBe(201);
    const low = (await outboxEvents(tenant, /^inventory\.low_stock$/)).map(
      (e) => (e.payload as { productId: string }).productId,
    );
    for (const c of components) expect(low).toContain(c.id);
    expect(low).not.toContain(kit.id);
  });

  it("keeps its components while an open order holds it (409), and lets them change after", async () => {
    const { kit, components } = await kitOf([5, 5], [1, 1]);
    const order = (await salesOrder(tenant, [{ productId: kit.id, quantity: 1 }])).body.data;
    const change = () =>
      call("PATCH", `/products/${kit.id}`, {
        headers: tenant.admin,
        body: { components: [{ productId: components[0]?.id, quantity: 2 }] },
      });
    const refused = await change();
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain("The kit is on open orders");
    const renamed = await call("PATCH", `/products/${kit.id}`, {
      headers: tenant.admin,
      body: { name: "Renamed" },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data?.components).toHaveLength(2);
    expect((await call("DELETE", `/products/${kit.id}`, { headers: tenant.admin })).status).toBe(409);
    await setStatus(tenant, order?.id as string, { status: "cancelled" });
    const changed = await change();
    expect(changed.status).toBe(200);
    expect(changed.body.data?.components).toEqual([{ productId: components[0]?.id, quantity: 2 }]);
    expect((await call("DELETE", `/products/${kit.id}`, { headers: tenant.admin })).status).toBe(200);
  });
});

describe("concurrency and properties", () => {
  it("30 concurrent kit orders against scarce components never oversell one", async () => {
    // 20 of A (2 a kit) and 25 of B (1 a kit): at most 10 kits.
    const { kit, components } = await kitOf([20, 25], [2, 1]);
    const results = await Promise.all(
      Array.from({ length: 30 }, () => salesOrder(tenant, [{ productId: kit.id, quantity: 1 }])),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(10);
    expect(statuses.every((s) => s === 201 || s === 409)).toBe(true);
    expect(await openReservations(tenant, components[0]?.id as string)).toBe(20);
    expect(await openReservations(tenant, components[1]?.id as string)).toBe(10);
    for (const c of components) await checkedStockOf(tenant, c.id);
    expect((await kitStock(kit.id)).available).toBe(0);
  });

  it("for random component stock and kit orders, no component is oversold and availability is the minimum", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ stock: fc.nat(12), per: fc.integer({ min: 1, max: 3 }) }), {
          minLength: 1,
          maxLength: 3,
        }),
        fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 1, maxLength: 4 }),
        async (parts, orders) => {
          const place = (await createWarehouse(tenant)).id;
          const location = (await createLocation(tenant, place)).id;
          const ids: string[] = [];
          for (const part of parts) {
            const component = await createProduct(tenant);
            if (part.stock > 0) await adjustStock(tenant, component.id, location, part.stock);
            ids.push(component.id);
          }
          const kit = await createProduct(tenant, {
            type: "kit",
            components: ids.map((id, i) => ({ productId: id, quantity: parts[i]?.per })),
          });
          let expected = Math.min(...parts.map((p) => Math.floor(p.stock / p.per)));
          expect((await kitStock(kit.id, place)).available).toBe(expected);
          for (const quantity of orders) {
            const res = await salesOrder(tenant, [{ productId: kit.id, quantity }], { warehouseId: place });
            expect(res.status).toBe(quantity <= expected ? 201 : 409);
            if (res.status === 201) expected -= quantity;
            expect((await kitStock(kit.id, place)).available).toBe(expected);
          }
          for (const id of ids) await checkedStockOf(tenant, id);
        },
      ),
      { numRuns: 8 },
    );
  });
});

describe("access", () => {
  it("needs a credential (401), write:products to make a kit (403), and keeps tenants apart (404)", async () => {
    const { kit, components } = await kitOf([1], [1]);
    const body = {
      sku: `K-${crypto.randomUUID()}`,
      name: "Kit",
      type: "kit",
      components: [{ productId: components[0]?.id, quantity: 1 }],
    };
    expect((await call("POST", "/products", { body })).status).toBe(401);
    const reader = await scopedKey(tenant, ["read:products"]);
    expect((await call("POST", "/products", { headers: reader, body })).status).toBe(403);
    expect((await call("GET", `/products/${kit.id}`, { headers: reader })).status).toBe(200);
    const stranger = await createTenant();
    const foreign = await call("POST", "/products", { headers: stranger.admin, body });
    expect(foreign.status).toBe(404);
    expect((await call("GET", `/products/${kit.id}`, { headers: stranger.admin })).status).toBe(404);
    const strangerStock = await call("GET", `/inventory/stock?productId=${kit.id}`, {
      headers: stranger.admin,
    });
    expect(strangerStock.body.data?.items).toEqual([]);
  });
});
