import { beforeAll, describe, expect, it } from "vitest";
import {
  adjustStock,
  createLocation,
  createProduct,
  createTenant,
  createWarehouse,
  purchaseOrder,
  receiveLot,
  salesOrder,
  scopedKey,
  setStatus,
  type TestTenant,
  unique,
} from "./support/builders";
import { outboxEvents } from "./support/database";
import { call } from "./support/http";

let tenant: TestTenant;
let other: TestTenant;
beforeAll(async () => {
  [tenant, other] = await Promise.all([createTenant(), createTenant()]);
});

/** A warehouse with three bins: B (walked first), A (second) and C (no sequence: last); each holds `stock` of a product. */
async function walkedWarehouse(who: TestTenant, stock = 10) {
  const warehouse = await createWarehouse(who);
  const suffix = unique().toUpperCase();
  const a = await createLocation(who, warehouse.id, { code: `A-${suffix}`, pickSequence: 20 });
  const b = await createLocation(who, warehouse.id, { code: `B-${suffix}`, pickSequence: 10 });
  const c = await createLocation(who, warehouse.id, { code: `C-${suffix}` });
  const products = [];
  for (const bin of [a, b, c]) {
    const product = await createProduct(who);
    await adjustStock(who, product.id, bin.id, stock);
    products.push(product);
  }
  return {
    warehouse,
    bins: { a, b, c },
    products: products as [(typeof products)[0], (typeof products)[0], (typeof products)[0]],
  };
}

/** A confirmed sales order reserving in `warehouseId`. */
async function confirmedOrder(
  who: TestTenant,
  warehouseId: string,
  lines: { productId: string; quantity: number; lotNumber?: string }[],
) {
  const order = await salesOrder(who, lines, { warehouseId });
  if (order.status !== 201) throw new Error(`order: ${JSON.stringify(order.body)}`);
  const confirmed = await setStatus(who, order.body.data.id, { status: "confirmed" });
  if (confirmed.status !== 200) throw new Error(`confirm: ${JSON.stringify(confirmed.body)}`);
  return order.body.data;
}

describe("POST /pick-lists", () => {
  it("lists a wave's reservations in walking order, creates the packing location, moves the orders to picking", async () => {
    const { warehouse, bins, products } = await walkedWarehouse(tenant);
    const [pa, pb, pc] = products;
    const first = await confirmedOrder(tenant, warehouse.id, [
      { productId: pc.id, quantity: 1 },
      { productId: pa.id, quantity: 2 },
    ]);
    const second = await confirmedOrder(tenant, warehouse.id, [{ productId: pb.id, quantity: 3 }]);

    const res = await call("POST", "/pick-lists", {
      headers: tenant.admin,
      body: { warehouseId: warehouse.id, orderIds: [first.id, second.id] },
    });
    expect(res.status).toBe(201);
    expect(res.headers.get("location")).toBe(`/api/v1/pick-lists/${res.body.data.id}`);
    const list = res.body.data;
    expect(list).toMatchObject({
      warehouseId: warehouse.id,
      status: "open",
      orderIds: [first.id, second.id],
    });
    expect(list.lines.map((l) => [l.lineNo, l.locationCode, l.sku, l.orderId, l.quantity, l.status])).toEqual(
      [
        [1, bins.b.code, pb.sku, second.id, 3, "open"],
        [2, bins.a.code, pa.sku, first.id, 2, "open"],
        [3, bins.c.code, pc.sku, first.id, 1, "open"],
      ],
    );
    expect(list.lines[0]).toMatchObject({
      orderLineId: second.lines[0]?.id,
      productId: pb.id,
      locationId: bins.b.id,
      lotNumber: null,
      pickedQuantity: 0,
      shortQuantity: 0,
    });
    expect((await call("GET", `/pick-lists/${list.id}`, { headers: tenant.admin })).body.data).toEqual(list);
    for (const order of [first, second]) {
      const read = await call("GET", `/orders/${order.id}`, { headers: tenant.admin });
      expect(read.body.data.status).toBe("picking");
      expect(read.body.data.statusHistory.at(-1)).toMatchObject({ from: "confirmed", to: "picking" });
    }
    const packing = await call("GET", `/locations?warehouseId=${warehouse.id}&type=packing`, {
      headers: tenant.admin,
    });
    expect(packing.body.data.items).toMatchObject([{ code: "PACKING", type: "packing" }]);

    const events = await outboxEvents(tenant, /^(pick_list\.|order\.status_changed)/);
    const created = events.filter((e) => e.type === "pick_list.created" && e.payload.id === list.id);
    expect(created.map((e) => e.payload)).toEqual([list]);
    const changed = events.filter(
      (e) => e.type === "order.status_changed" && [first.id, second.id].includes(e.payload.id as string),
    );
    expect(
      changed
        .filter((e) => e.payload.status === "picking")
        .map((e) => e.payload.id)
        .sort(),
    ).toEqual([first.id, second.id].sort());

    const listed = await call("GET", `/pick-lists?orderId=${first.id}`, { headers: tenant.admin });
    expect(listed.body.data.items).toEqual([
      {
        ...Object.fromEntries(Object.entries(list).filter(([k]) => k !== "lines")),
        totals: { lines: 3, quantity: 6, pickedQuantity: 0, shortQuantity: 0 },
      },
    ]);
  });

  it("keeps FEFO lots and lot pins as allocated", async () => {
    const warehouse = await createWarehouse(tenant);
    const bin = await createLocation(tenant, warehouse.id);
    const product = await createProduct(tenant, { tracking: "lot" });
    await receiveLot(tenant, product.id, bin.id, 2, { lotNumber: "LATE", expiresAt: "2099-12-31" });
    await receiveLot(tenant, product.id, bin.id, 2, { lotNumber: "SOON", expiresAt: "2098-01-31" });
    const order = await confirmedOrder(tenant, warehouse.id, [{ productId: product.id, quantity: 3 }]);
    const list = await call("POST", "/pick-lists", {
      headers: tenant.admin,
      body: { warehouseId: warehouse.id, orderIds: [order.id] },
    });
    expect(list.body.data.lines.map((l) => [l.lotNumber, l.quantity]).sort()).toEqual([
      ["LATE", 1],
      ["SOON", 2],
    ]);
  });

  it("refuses orders it cannot pick, naming each, and changes nothing", async () => {
    const { warehouse, products } = await walkedWarehouse(tenant);
    const elsewhere = await walkedWarehouse(tenant);
    const pending = await salesOrder(tenant, [{ productId: products[0].id, quantity: 1 }], {
      warehouseId: warehouse.id,
    });
    const foreign = await confirmedOrder(tenant, elsewhere.warehouse.id, [
      { productId: elsewhere.products[0].id, quantity: 1 },
    ]);
    const purchase = await purchaseOrder(tenant, warehouse.id, [{ productId: products[1].id, quantity: 1 }]);
    const fine = await confirmedOrder(tenant, warehouse.id, [{ productId: products[2].id, quantity: 1 }]);
    const refused = await call("POST", "/pick-lists", {
      headers: tenant.admin,
      body: {
        warehouseId: warehouse.id,
        orderIds: [pending.body.data.id, foreign.id, purchase.body.data.id, fine.id],
      },
    });
    expect(refused.status).toBe(409);
    expect(refused.body.errors).toEqual([
      `orderIds[0]: sales order ${pending.body.data.number} is pending; only confirmed or picking orders are picked`,
      `orderIds[1]: sales order ${foreign.number} holds stock in another warehouse`,
      `orderIds[2]: purchase order ${purchase.body.data.number} is not a sales order`,
    ]);
    expect((await call("GET", `/orders/${fine.id}`, { headers: tenant.admin })).body.data.status).toBe(
      "confirmed",
    );

    const unknownId = crypto.randomUUID();
    const unknown = await call("POST", "/pick-lists", {
      headers: tenant.admin,
      body: { warehouseId: warehouse.id, orderIds: [fine.id, unknownId] },
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.errors).toEqual([`orderIds[1]: order ${unknownId} not found`]);
    const noWarehouse = await call("POST", "/pick-lists", {
      headers: tenant.admin,
      body: { warehouseId: unknownId, orderIds: [fine.id] },
    });
    expect(noWarehouse.body.errors).toEqual([`warehouseId: warehouse ${unknownId} not found`]);

    const first = await call("POST", "/pick-lists", {
      headers: tenant.admin,
      body: { warehouseId: warehouse.id, orderIds: [fine.id] },
    });
    expect(first.status).toBe(201);
    const twice = await call("POST", "/pick-lists", {
      headers: tenant.admin,
      body: { warehouseId: warehouse.id, orderIds: [fine.id] },
    });
    expect(twice.status).toBe(409);
    expect(twice.body.errors).toEqual([
      `orderIds[0]: sales order ${fine.number} is on pick list ${first.body.data.id} already`,
    ]);

    const bad = await call("POST", "/pick-lists", {
      headers: tenant.admin,
      body: { warehouseId: warehouse.id, orderIds: [fine.id, fine.id] },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual(["orderIds: must not name an order twice"]);
    const tooMany = await call("POST", "/pick-lists", {
      headers: tenant.admin,
      body: { warehouseId: warehouse.id, orderIds: Array.from({ length: 201 }, () => crypto.randomUUID()) },
    });
    expect(tooMany.body.errors).toEqual(["orderIds: must name at most 200 orders"]);
  });

  it("of two concurrent pick lists for one order, exactly one is made", async () => {
    const { warehouse, products } = await walkedWarehouse(tenant);
    const order = await confirmedOrder(tenant, warehouse.id, [{ productId: products[0].id, quantity: 2 }]);
    const results = await Promise.all(
      Array.from({ length: 6 }, () =>
        call("POST", "/pick-lists", {
          headers: tenant.admin,
          body: { warehouseId: warehouse.id, orderIds: [order.id] },
        }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    const lists = await call("GET", `/pick-lists?orderId=${order.id}`, { headers: tenant.admin });
    expect(lists.body.data.totalCount).toBe(1);
    const read = await call("GET", `/orders/${order.id}`, { headers: tenant.admin });
    expect(read.body.data.statusHistory.filter((h) => h.to === "picking")).toHaveLength(1);
  });

  it("racing the order's cancellation ends in one consistent state", async () => {
    const { warehouse, products } = await walkedWarehouse(tenant);
    for (let round = 0; round < 3; round++) {
      const order = await confirmedOrder(tenant, warehouse.id, [{ productId: products[1].id, quantity: 1 }]);
      const [list, cancel] = await Promise.all([
        call("POST", "/pick-lists", {
          headers: tenant.admin,
          body: { warehouseId: warehouse.id, orderIds: [order.id] },
        }),
        setStatus(tenant, order.id, { status: "cancelled" }),
      ]);
      const status = (await call("GET", `/orders/${order.id}`, { headers: tenant.admin })).body.data.status;
      const lists = (await call("GET", `/pick-lists?orderId=${order.id}`, { headers: tenant.admin })).body
        .data;
      if (list.status === 201) {
        // The cancellation came second: it cancelled the picking order, or lost to the bump (409).
        expect(lists.totalCount).toBe(1);
        expect([200, 409]).toContain(cancel.status);
        expect(status).toBe(cancel.status === 200 ? "cancelled" : "picking");
      } else {
        expect(list.status).toBe(409);
        expect(cancel.status).toBe(200);
        expect(lists.totalCount).toBe(0);
        expect(status).toBe("cancelled");
      }
    }
  });
});

describe("POST /pick-lists/{id}/cancel", () => {
  it("cancels the open lines, releases nothing, and lets the orders go on a new pick list", async () => {
    const { warehouse, products } = await walkedWarehouse(tenant);
    const order = await confirmedOrder(tenant, warehouse.id, [{ productId: products[0].id, quantity: 4 }]);
    const list = (
      await call("POST", "/pick-lists", {
        headers: tenant.admin,
        body: { warehouseId: warehouse.id, orderIds: [order.id] },
      })
    ).body.data;
    const cancelled = await call("POST", `/pick-lists/${list.id}/cancel`, { headers: tenant.admin });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data).toMatchObject({ status: "cancelled", lines: [{ status: "cancelled" }] });
    expect(cancelled.body.data.cancelledAt).not.toBeNull();
    const stock = await call("GET", `/inventory/stock?productId=${products[0].id}`, {
      headers: tenant.admin,
    });
    expect(stock.body.data.items).toMatchObject([{ onHand: 10, reserved: 4 }]);
    expect((await call("GET", `/orders/${order.id}`, { headers: tenant.admin })).body.data.status).toBe(
      "picking",
    );
    const again = await call("POST", `/pick-lists/${list.id}/cancel`, { headers: tenant.admin });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(
      `Pick list ${list.id} is cancelled; only open or in-progress pick lists can be cancelled`,
    );
    const next = await call("POST", "/pick-lists", {
      headers: tenant.admin,
      body: { warehouseId: warehouse.id, orderIds: [order.id] },
    });
    expect(next.status).toBe(201);
    const events = await outboxEvents(tenant, /^pick_list\.cancelled$/);
    expect(events.filter((e) => e.payload.id === list.id).map((e) => e.payload)).toEqual([
      cancelled.body.data,
    ]);
  });
});

describe("pick list access", () => {
  it("reads need read:orders, writes write:orders; another tenant's pick list is unknown", async () => {
    const { warehouse, products } = await walkedWarehouse(tenant);
    const order = await confirmedOrder(tenant, warehouse.id, [{ productId: products[0].id, quantity: 1 }]);
    const body = { warehouseId: warehouse.id, orderIds: [order.id] };
    expect((await call("POST", "/pick-lists", { body })).status).toBe(401);
    const reader = await scopedKey(tenant, ["read:orders"]);
    expect((await call("POST", "/pick-lists", { headers: reader, body })).status).toBe(403);
    const inventory = await scopedKey(tenant, ["write:inventory"]);
    expect((await call("GET", "/pick-lists", { headers: inventory })).status).toBe(403);
    const list = (await call("POST", "/pick-lists", { headers: tenant.admin, body })).body.data;
    expect((await call("GET", `/pick-lists/${list.id}`, { headers: reader })).status).toBe(200);
    expect((await call("GET", `/pick-lists/${list.id}`, { headers: other.admin })).status).toBe(404);
    expect((await call("POST", `/pick-lists/${list.id}/cancel`, { headers: other.admin })).status).toBe(404);
    expect((await call("GET", "/pick-lists", { headers: other.admin })).body.data.totalCount).toBe(0);
    const foreign = await call("POST", "/pick-lists", { headers: other.admin, body });
    expect(foreign.status).toBe(404);
  });
});
