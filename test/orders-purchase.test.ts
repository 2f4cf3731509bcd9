import { assert, describe, expect, it } from "vitest";
import {
  createLocation,
  createProduct,
  createTenant,
  createWarehouse,
  salesOrder,
  setStatus,
  stockedProduct,
  type TestTenant,
} from "./support/builders";
import { outboxTypes, stockOf } from "./support/database";
import { call } from "./support/http";

async function purchaseSetup(tenant: TestTenant) {
  const warehouseId = (await createWarehouse(tenant)).id;
  const locationId = (await createLocation(tenant, warehouseId)).id;
  const [bolts, nuts] = [(await createProduct(tenant)).id, (await createProduct(tenant)).id];
  const res = await call("POST", "/orders/purchase", {
    headers: tenant.admin,
    body: {
      supplier: "Acme Supplies",
      warehouseId,
      expectedAt: "2026-12-01T09:00:00.000Z",
      lines: [
        { productId: bolts, quantity: 10, cost: 0.35 },
        { productId: nuts, quantity: 4, cost: 1.1 },
      ],
    },
  });
  expect(res.status).toBe(201);
  const order = res.body.data;
  const [boltLine, nutLine] = order.lines;
  assert(boltLine && nutLine, "the order has both lines");
  return {
    warehouseId,
    locationId,
    bolts,
    nuts,
    order,
    boltLine: boltLine?.id ?? "",
    nutLine: nutLine?.id ?? "",
  };
}

function receive(
  tenant: TestTenant,
  orderId: string,
  lines: { lineId: string; quantity: number; locationId: string }[],
) {
  return call("POST", `/orders/${orderId}/receive`, { headers: tenant.admin, body: { lines } });
}

describe("purchase orders", () => {
  it("creates a draft PO with its own number series and exact totals", async () => {
    const tenant = await createTenant();
    const { order } = await purchaseSetup(tenant);
    expect(order).toMatchObject({
      number: "PO-000001",
      type: "purchase",
      status: "draft",
      supplier: "Acme Supplies",
      expectedAt: "2026-12-01T09:00:00.000Z",
      totals: { quantity: 14, total: 7.9 },
      allowedTransitions: ["ordered", "cancelled"],
    });
    expect(order.lines[0]).toMatchObject({ cost: 0.35, receivedQuantity: 0, lineTotal: 3.5 });
  });

  it("walks draft -> ordered -> partially_received -> received, adding stock with received ledger rows", async () => {
    const tenant = await createTenant();
    const { order, locationId, bolts, nuts, boltLine, nutLine } = await purchaseSetup(tenant);
    const early = await receive(tenant, order.id, [{ lineId: boltLine, quantity: 1, locationId }]);
    expect(early.status).toBe(409);
    expect(early.body.message).toMatch(/is draft/);

    expect((await setStatus(tenant, order.id, { status: "ordered" })).status).toBe(200);
    const partial = await receive(tenant, order.id, [
      { lineId: boltLine, quantity: 6, locationId },
      { lineId: boltLine, quantity: 1, locationId },
    ]);
    expect(partial.status).toBe(200);
    expect(partial.body.data).toMatchObject({ status: "partially_received", allowedTransitions: [] });
    expect(partial.body.data.lines[0]?.receivedQuantity).toBe(7);
    expect(await stockOf(tenant, bolts)).toMatchObject([{ onHand: 7, reserved: 0, ledger: 7 }]);

    const cancel = await setStatus(tenant, order.id, { status: "cancelled" });
    expect(cancel.status).toBe(409);

    const rest = await receive(tenant, order.id, [
      { lineId: boltLine, quantity: 3, locationId },
      { lineId: nutLine, quantity: 4, locationId },
    ]);
    expect(rest.status).toBe(200);
    expect(rest.body.data.status).toBe("received");
    expect(rest.body.data.statusHistory.map((h: { to: string }) => h.to)).toEqual([
      "draft",
      "ordered",
      "partially_received",
      "received",
    ]);
    expect(await stockOf(tenant, bolts)).toMatchObject([{ onHand: 10, ledger: 10 }]);
    expect(await stockOf(tenant, nuts)).toMatchObject([{ onHand: 4, ledger: 4 }]);
    expect(await outboxTypes(tenant)).toEqual([
      "order.created",
      "order.status_changed",
      "purchase_order.received",
      "order.status_changed",
      "purchase_order.received",
      "order.status_changed",
    ]);

    const again = await receive(tenant, order.id, [{ lineId: nutLine, quantity: 1, locationId }]);
    expect(again.status).toBe(409);
  });

  it("refuses receiving more than was ordered, naming the line, and changes nothing", async () => {
    const tenant = await createTenant();
    const { order, locationId, bolts, boltLine } = await purchaseSetup(tenant);
    await setStatus(tenant, order.id, { status: "ordered" });
    await receive(tenant, order.id, [{ lineId: boltLine, quantity: 8, locationId }]);
    const over = await receive(tenant, order.id, [{ lineId: boltLine, quantity: 3, locationId }]);
    expect(over.status).toBe(409);
    expect(over.body.errors).toEqual(["lines[0]: line 1 ordered 10, open 2, receiving 3"]);
    expect(await stockOf(tenant, bolts)).toMatchObject([{ onHand: 8, ledger: 8 }]);
  });

  it("refuses concurrent receipts that together exceed the order: one wins, nothing is over-received", async () => {
    const tenant = await createTenant();
    const { order, locationId, bolts, boltLine } = await purchaseSetup(tenant);
    await setStatus(tenant, order.id, { status: "ordered" });
    const results = await Promise.all(
      Array.from({ length: 5 }, () =>
        receive(tenant, order.id, [{ lineId: boltLine, quantity: 6, locationId }]),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409]);
    expect(await stockOf(tenant, bolts)).toMatchObject([{ onHand: 6, ledger: 6 }]);
  });

  it("cancels before any receipt; unknown lines and locations are 404, another warehouse's location 400", async () => {
    const tenant = await createTenant();
    const { order, boltLine } = await purchaseSetup(tenant);
    await setStatus(tenant, order.id, { status: "ordered" });
    const otherWarehouse = (await createWarehouse(tenant)).id;
    const elsewhere = (await createLocation(tenant, otherWarehouse)).id;
    const wrong = await receive(tenant, order.id, [{ lineId: boltLine, quantity: 1, locationId: elsewhere }]);
    expect(wrong.status).toBe(400);
    const missing = await receive(tenant, order.id, [
      { lineId: crypto.randomUUID(), quantity: 1, locationId: crypto.randomUUID() },
    ]);
    expect(missing.status).toBe(404);
    expect(missing.body.errors).toHaveLength(2);

    const cancelled = await setStatus(tenant, order.id, { status: "cancelled" });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data.allowedTransitions).toEqual([]);
  });

  it("refuses receiving into an inactive location (409), changing nothing", async () => {
    const tenant = await createTenant();
    const { order, warehouseId, bolts, boltLine } = await purchaseSetup(tenant);
    await setStatus(tenant, order.id, { status: "ordered" });
    const inactive = (await createLocation(tenant, warehouseId, { active: false })).id;
    const res = await receive(tenant, order.id, [{ lineId: boltLine, quantity: 1, locationId: inactive }]);
    expect(res.status).toBe(409);
    expect(res.body.message).toMatch(/inactive/);
    expect(await stockOf(tenant, bolts)).toEqual([]);
  });

  it("refuses receiving a sales order and status moves to receiving statuses", async () => {
    const tenant = await createTenant();
    const { order, locationId, boltLine } = await purchaseSetup(tenant);
    for (const status of ["received", "partially_received", "shipped", "draft"]) {
      const res = await setStatus(tenant, order.id, { status });
      expect(res.status, status).toBe(409);
      expect(res.body.errors).toEqual([
        `status: purchase order ${order.number} is draft; allowed next statuses: ordered, cancelled`,
      ]);
    }
    const { productId } = await stockedProduct(tenant, 3);
    const sales = (await salesOrder(tenant, [{ productId, quantity: 1 }])).body.data;
    const res = await receive(tenant, sales.id, [{ lineId: boltLine, quantity: 1, locationId }]);
    expect(res.status).toBe(409);
  });
});
