import { beforeAll, describe, expect, it } from "vitest";
import { gs1CheckDigit } from "../src/gs1/check-digit";
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

let tenant: TestTenant;
let other: TestTenant;
beforeAll(async () => {
  [tenant, other] = await Promise.all([createTenant(), createTenant()]);
});

/** Two products in one bin (10 each) and a confirmed order for `quantities` of them. */
async function confirmedOrder(quantities: [number, number]) {
  const warehouse = await createWarehouse(tenant);
  const bin = await createLocation(tenant, warehouse.id);
  const a = await createProduct(tenant);
  const b = await createProduct(tenant);
  await adjustStock(tenant, a.id, bin.id, 10);
  await adjustStock(tenant, b.id, bin.id, 10);
  const order = await salesOrder(
    tenant,
    [
      { productId: a.id, quantity: quantities[0] },
      { productId: b.id, quantity: quantities[1] },
    ],
    { warehouseId: warehouse.id },
  );
  expect(order.status).toBe(201);
  await setStatus(tenant, order.body.data.id, { status: "confirmed" });
  const [lineA, lineB] = order.body.data.lines;
  if (!lineA || !lineB) throw new Error("the order has two lines");
  return { warehouse, bin, a, b, order: order.body.data, lineA, lineB };
}

const ship = (orderId: string, body: Record<string, unknown>, headers = tenant.admin) =>
  call("POST", `/orders/${orderId}/shipments`, { headers, body });
const kg = (value: number) => ({ value, unit: "kg" });

describe("POST /orders/{id}/shipments", () => {
  it("ships an order in parts: partially_shipped, then shipped; stock leaves with reason `shipment`", async () => {
    const { bin, a, b, order, lineA, lineB } = await confirmedOrder([3, 2]);
    const first = await ship(order.id, {
      carrier: "dhl",
      service: "express",
      packages: [
        {
          packageType: "box-m",
          weight: { value: 1.25, unit: "kg" },
          dimensions: { length: 30, width: 20, height: 10.5, unit: "cm" },
          lines: [{ orderLineId: lineA.id, quantity: 2 }],
        },
      ],
    });
    expect(first.status).toBe(201);
    const shipment = first.body.data;
    expect(first.headers.get("location")).toBe(`/api/v1/shipments/${shipment.id}`);
    expect(shipment).toMatchObject({
      orderId: order.id,
      status: "packed",
      carrier: "dhl",
      service: "express",
      packages: [
        {
          packageNo: 1,
          packageType: "box-m",
          weight: { value: 1.25, unit: "kg" },
          dimensions: { length: 30, width: 20, height: 10.5, unit: "cm" },
          trackingNumber: null,
          lines: [
            { orderLineId: lineA.id, productId: a.id, quantity: 2, lotNumber: null, serialNumbers: null },
          ],
        },
      ],
    });
    const sscc = shipment.packages[0]?.sscc as string;
    expect(sscc).toMatch(/^\d{18}$/);
    expect(Number(sscc.at(-1))).toBe(gs1CheckDigit(sscc.slice(0, -1)));
    expect(
      (await call("GET", `/barcodes/${sscc}`, { headers: tenant.admin })).body.data.matches,
    ).toMatchObject([{ type: "package", package: { shipmentId: shipment.id, orderId: order.id } }]);

    const partly = await call("GET", `/orders/${order.id}`, { headers: tenant.admin });
    expect(partly.body.data.status).toBe("partially_shipped");
    expect(partly.body.data.lines.map((l) => [l.shippedQuantity, l.backorderedQuantity])).toEqual([
      [2, 0],
      [0, 0],
    ]);
    expect((await checkedStockOf(tenant, a.id)).find((l) => l.locationId === bin.id)).toMatchObject({
      onHand: 8,
      reserved: 1,
    });
    const moves = await call("GET", `/inventory/movements?reference=${shipment.id}`, {
      headers: tenant.admin,
    });
    expect(moves.body.data.items).toMatchObject([
      { delta: -2, reason: "shipment", referenceType: "shipment" },
    ]);

    const second = await ship(order.id, {
      packages: [
        { weight: kg(0.5), lines: [{ orderLineId: lineA.id, quantity: 1 }] },
        { weight: { value: 2, unit: "lb" }, lines: [{ orderLineId: lineB.id, quantity: 2 }] },
      ],
    });
    expect(second.status).toBe(201);
    expect(second.body.data.packages.map((p) => p.packageNo)).toEqual([1, 2]);
    expect(new Set([sscc, ...second.body.data.packages.map((p) => p.sscc)]).size).toBe(3);
    const done = await call("GET", `/orders/${order.id}`, { headers: tenant.admin });
    expect(done.body.data.status).toBe("shipped");
    expect(done.body.data.lines.map((l) => l.shippedQuantity)).toEqual([3, 2]);
    expect(await openReservations(tenant, a.id)).toBe(0);
    expect(await openReservations(tenant, b.id)).toBe(0);
    await checkedStockOf(tenant, b.id);

    const listed = await call("GET", `/orders/${order.id}/shipments`, { headers: tenant.admin });
    expect(listed.body.data.map((s) => s.id)).toEqual([shipment.id, second.body.data.id]);
    expect((await call("GET", `/shipments/${shipment.id}`, { headers: tenant.admin })).body.data).toEqual(
      shipment,
    );
    const byCarrier = await call("GET", "/shipments?carrier=dhl&status=packed", { headers: tenant.admin });
    expect(byCarrier.body.data.items.map((s) => s.id)).toContain(shipment.id);
    expect(byCarrier.body.data.items.map((s) => s.id)).not.toContain(second.body.data.id);

    const events = (await outboxEvents(tenant, /^order\./)).filter((e) => e.payload.id === order.id);
    const types = events.map((e) => e.type);
    expect(types.slice(-4)).toEqual([
      "order.status_changed",
      "order.partially_shipped",
      "order.status_changed",
      "order.shipped",
    ]);
    const shippedEvent = events.at(-1)?.payload as { shipments: { id: string }[]; status: string };
    expect(shippedEvent.status).toBe("shipped");
    expect(shippedEvent.shipments.map((s) => s.id)).toEqual([shipment.id, second.body.data.id]);

    const more = await ship(order.id, {
      packages: [{ weight: kg(1), lines: [{ orderLineId: lineA.id, quantity: 1 }] }],
    });
    expect(more.status).toBe(409);
  });

  it("refuses more than a line has open, naming it, and bad input with a 400", async () => {
    const { order, lineA } = await confirmedOrder([3, 2]);
    const over = await ship(order.id, {
      packages: [
        { weight: kg(1), lines: [{ orderLineId: lineA.id, quantity: 2 }] },
        { weight: kg(1), lines: [{ orderLineId: lineA.id, quantity: 2 }] },
      ],
    });
    expect(over.status).toBe(409);
    expect(over.body.errors).toEqual(["packages[1].lines[0].quantity: line 1 has 1 open, shipping 2"]);
    const unknown = crypto.randomUUID();
    const notOnOrder = await ship(order.id, {
      packages: [{ weight: kg(1), lines: [{ orderLineId: unknown, quantity: 1 }] }],
    });
    expect(notOnOrder.status).toBe(404);
    expect(notOnOrder.body.errors).toEqual([
      `packages[0].lines[0].orderLineId: line ${unknown} not found on order ${order.number}`,
    ]);
    const noWeight = await ship(order.id, {
      packages: [{ lines: [{ orderLineId: lineA.id, quantity: 1 }] }],
    });
    expect(noWeight.status).toBe(400);
    const badWeight = await ship(order.id, {
      packages: [{ weight: { value: 1.2345, unit: "kg" }, lines: [{ orderLineId: lineA.id, quantity: 1 }] }],
    });
    expect(badWeight.body.errors).toEqual(["packages[0].weight.value: must have at most 3 decimals"]);
    expect((await call("GET", `/orders/${order.id}`, { headers: tenant.admin })).body.data.status).toBe(
      "confirmed",
    );
  });

  it("50 concurrent shipment creations on one order never ship more than ordered", async () => {
    const { a, order, lineA } = await confirmedOrder([10, 1]);
    const results = await Promise.all(
      Array.from({ length: 50 }, () =>
        ship(order.id, { packages: [{ weight: kg(1), lines: [{ orderLineId: lineA.id, quantity: 1 }] }] }),
      ),
    );
    const created = results.filter((r) => r.status === 201).length;
    expect(results.every((r) => r.status === 201 || r.status === 409)).toBe(true);
    expect(created).toBeGreaterThan(0);
    expect(created).toBeLessThanOrEqual(10);
    const read = await call("GET", `/orders/${order.id}`, { headers: tenant.admin });
    expect(read.body.data.lines[0]?.shippedQuantity).toBe(created);
    const shipments = await call("GET", `/orders/${order.id}/shipments`, { headers: tenant.admin });
    expect(shipments.body.data).toHaveLength(created);
    const levels = await checkedStockOf(tenant, a.id);
    expect(levels.reduce((sum, l) => sum + l.onHand, 0)).toBe(10 - created);
    expect(await openReservations(tenant, a.id)).toBe(10 - created);
  });

  it("ships picked units from the packing location", async () => {
    const { warehouse, bin, a, order, lineA, lineB } = await confirmedOrder([2, 1]);
    const list = (
      await call("POST", "/pick-lists", {
        headers: tenant.admin,
        body: { warehouseId: warehouse.id, orderIds: [order.id] },
      })
    ).body.data;
    const lineOfA = list.lines.find((l) => l.productId === a.id);
    await call("POST", `/pick-lists/${list.id}/picks`, {
      headers: tenant.admin,
      body: { lineId: lineOfA?.id, location: bin.code, product: a.sku, quantity: 2 },
    });
    // B is still to pick: shipping it from its bin while the pick list is open is refused.
    const early = await ship(order.id, {
      packages: [{ weight: kg(1), lines: [{ orderLineId: lineB.id, quantity: 1 }] }],
    });
    expect(early.status).toBe(409);
    const res = await ship(order.id, {
      packages: [{ weight: kg(1), lines: [{ orderLineId: lineA.id, quantity: 2 }] }],
    });
    expect(res.status).toBe(201);
    const levels = await checkedStockOf(tenant, a.id);
    expect(levels.find((l) => l.locationId === bin.id)).toMatchObject({ onHand: 8, reserved: 0 });
    expect(levels.find((l) => l.locationId !== bin.id)).toMatchObject({ onHand: 0, reserved: 0 });

    // What was picked shipped first; the rest is picked on the same list and ships after it.
    const lineOfB = list.lines.find((l) => l.productId !== a.id);
    const pickB = await call("POST", `/pick-lists/${list.id}/picks`, {
      headers: tenant.admin,
      body: { lineId: lineOfB?.id, location: bin.code, product: lineOfB?.sku, quantity: 1 },
    });
    expect(pickB.status).toBe(200);
    expect(pickB.body.data.status).toBe("completed");
    const rest = await ship(order.id, {
      packages: [{ weight: kg(1), lines: [{ orderLineId: lineB.id, quantity: 1 }] }],
    });
    expect(rest.status).toBe(201);
    expect((await call("GET", `/orders/${order.id}`, { headers: tenant.admin })).body.data.status).toBe(
      "shipped",
    );
  });
});

describe("POST /shipments/{id}/dispatch", () => {
  it("hands the shipment to the carrier once, with shipment.dispatched", async () => {
    const { order, lineA } = await confirmedOrder([1, 1]);
    const shipment = (
      await ship(order.id, { packages: [{ weight: kg(1), lines: [{ orderLineId: lineA.id, quantity: 1 }] }] })
    ).body.data;
    const dispatched = await call("POST", `/shipments/${shipment.id}/dispatch`, { headers: tenant.admin });
    expect(dispatched.status).toBe(200);
    expect(dispatched.body.data).toMatchObject({ status: "dispatched" });
    expect(dispatched.body.data.dispatchedAt).not.toBeNull();
    const again = await call("POST", `/shipments/${shipment.id}/dispatch`, { headers: tenant.admin });
    expect(again.status).toBe(409);
    const events = (await outboxEvents(tenant, /^shipment\.dispatched$/)).filter(
      (e) => e.payload.id === shipment.id,
    );
    expect(events.map((e) => e.payload)).toEqual([{ ...dispatched.body.data, trackingNumbers: [] }]);
  });
});

describe("the legacy status update", () => {
  it("ships everything not yet shipped as one dispatched shipment with the tracking number", async () => {
    const { a, order, lineA, lineB } = await confirmedOrder([3, 2]);
    const part = await ship(order.id, {
      packages: [{ weight: kg(1), lines: [{ orderLineId: lineA.id, quantity: 1 }] }],
    });
    const res = await setStatus(tenant, order.id, { status: "shipped", trackingNumber: "1Z999" });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ status: "shipped", trackingNumber: "1Z999" });
    expect(res.body.data.lines.map((l) => l.shippedQuantity)).toEqual([3, 2]);
    const shipments = (await call("GET", `/orders/${order.id}/shipments`, { headers: tenant.admin })).body
      .data;
    expect(shipments).toHaveLength(2);
    expect(shipments[1]).toMatchObject({
      status: "dispatched",
      packages: [
        {
          trackingNumber: "1Z999",
          weight: null,
          lines: expect.arrayContaining([
            expect.objectContaining({ orderLineId: lineA.id, quantity: 2 }),
            expect.objectContaining({ orderLineId: lineB.id, quantity: 2 }),
          ]),
        },
      ],
    });
    // As before: the ledger rows of the update point at the order, reason `shipped`.
    const moves = await call("GET", `/inventory/movements?reference=${order.id}&productId=${a.id}`, {
      headers: tenant.admin,
    });
    expect(moves.body.data.items).toMatchObject([{ delta: -2, reason: "shipped", referenceType: "order" }]);
    const shippedEvents = (await outboxEvents(tenant, /^order\.shipped$/)).filter(
      (e) => e.payload.id === order.id,
    );
    expect(shippedEvents).toHaveLength(1);
    const shippedPayload = shippedEvents[0]?.payload as {
      shipments: { id: string }[];
      trackingNumber: string;
    };
    expect(shippedPayload.shipments.map((s) => s.id)).toEqual([part.body.data.id, shipments[1]?.id]);
    expect(shippedPayload.trackingNumber).toBe("1Z999");
    const dispatched = (await outboxEvents(tenant, /^shipment\.dispatched$/)).filter(
      (e) => e.payload.orderId === order.id,
    );
    expect(dispatched.map((e) => e.payload.trackingNumbers)).toEqual([["1Z999"]]);
    await checkedStockOf(tenant, a.id);
  });
});

describe("shipment access", () => {
  it("reads need read:orders, writes write:orders; another tenant's shipment is unknown", async () => {
    const { order, lineA } = await confirmedOrder([1, 1]);
    const body = { packages: [{ weight: kg(1), lines: [{ orderLineId: lineA.id, quantity: 1 }] }] };
    expect((await call("POST", `/orders/${order.id}/shipments`, { body })).status).toBe(401);
    const reader = await scopedKey(tenant, ["read:orders"]);
    expect((await ship(order.id, body, reader)).status).toBe(403);
    expect((await ship(order.id, body, other.admin)).status).toBe(404);
    const shipment = (await ship(order.id, body)).body.data;
    expect((await call("GET", `/shipments/${shipment.id}`, { headers: reader })).status).toBe(200);
    const inventory = await scopedKey(tenant, ["read:inventory"]);
    expect((await call("GET", "/shipments", { headers: inventory })).status).toBe(403);
    expect((await call("GET", `/shipments/${shipment.id}`, { headers: other.admin })).status).toBe(404);
    expect((await call("GET", `/orders/${order.id}/shipments`, { headers: other.admin })).status).toBe(404);
    expect((await call("POST", `/shipments/${shipment.id}/dispatch`, { headers: other.admin })).status).toBe(
      404,
    );
    expect((await call("POST", `/shipments/${shipment.id}/dispatch`, { headers: reader })).status).toBe(403);
  });
});
