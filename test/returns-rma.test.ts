import { beforeAll, describe, expect, it } from "vitest";
import { levelsIn } from "./support/api-types";
import {
  adjustStock,
  createLocation,
  createProduct,
  createTenant,
  createWarehouse,
  salesOrder,
  setStatus,
  type TestTenant,
} from "./support/builders";
import { checkedStockOf, outboxEvents } from "./support/database";
import { BASE, call, fetchApi } from "./support/http";

let tenant: TestTenant;
beforeAll(async () => {
  tenant = await createTenant();
});

/**
 * A warehouse with a bin, a sellable returns bin and a quarantine bin; products stocked in the bin; a sales
 * order for `quantities` of them, shipped in one dispatched shipment (the status update's shipment).
 */
async function shippedOrder(quantities: number[], product: Record<string, unknown> = {}) {
  const warehouse = await createWarehouse(tenant);
  const bin = await createLocation(tenant, warehouse.id);
  const quarantine = await createLocation(tenant, warehouse.id, {
    sellable: false,
    code: `Q-${crypto.randomUUID()}`,
  });
  const products: { id: string }[] = [];
  for (const _ of quantities) {
    const p = await createProduct(tenant, product);
    await adjustStock(tenant, p.id, bin.id, 10);
    products.push(p);
  }
  const order = await salesOrder(
    tenant,
    quantities.map((quantity, i) => ({ productId: products[i]?.id as string, quantity })),
    { warehouseId: warehouse.id },
  );
  expect(order.status).toBe(201);
  expect(
    (await setStatus(tenant, order.body.data.id, { status: "shipped", trackingNumber: "1Z" })).status,
  ).toBe(200);
  return { warehouse, bin, quarantine, products, order: order.body.data, lines: order.body.data.lines };
}

const createReturn = (body: Record<string, unknown>, headers = tenant.admin) =>
  call("POST", "/returns", { headers, body });
const setReturnStatus = (id: string, status: string, headers = tenant.admin) =>
  call("PATCH", `/returns/${id}/status`, { headers, body: { status } });
const receive = (id: string, lines: Record<string, unknown>[], headers = tenant.admin) =>
  call("POST", `/returns/${id}/receipts`, { headers, body: { lines } });

describe("POST /returns", () => {
  it("authorizes at most what shipped on a line minus what other returns claim (409 with the numbers)", async () => {
    const { order, lines } = await shippedOrder([3, 2]);
    const [lineA, lineB] = lines as [(typeof lines)[number], (typeof lines)[number]];
    const first = await createReturn({
      orderId: order.id,
      lines: [
        { orderLineId: lineA.id, quantity: 2, reason: "damaged" },
        { orderLineId: lineB.id, quantity: 1, reason: "wrong_item" },
      ],
      notes: "Parcel came back torn",
    });
    expect(first.status).toBe(201);
    expect(first.headers.get("location")).toBe(`/api/v1/returns/${first.body.data.id}`);
    expect(first.body.data).toMatchObject({
      orderId: order.id,
      status: "requested",
      notes: "Parcel came back torn",
      number: expect.stringMatching(/^RMA-\d{6}$/),
      lines: [
        { lineNo: 1, orderLineId: lineA.id, quantity: 2, receivedQuantity: 0, reason: "damaged" },
        { lineNo: 2, orderLineId: lineB.id, quantity: 1, receivedQuantity: 0, reason: "wrong_item" },
      ],
      receipts: [],
    });
    const second = await createReturn({
      orderId: order.id,
      lines: [{ orderLineId: lineA.id, quantity: 1, reason: "damaged" }],
    });
    expect(second.status).toBe(201);
    expect(Number(second.body.data.number.slice(4))).toBe(Number(first.body.data.number.slice(4)) + 1);

    const over = await createReturn({
      orderId: order.id,
      lines: [
        { orderLineId: lineB.id, quantity: 1, reason: "damaged" },
        { orderLineId: lineA.id, quantity: 1, reason: "damaged" },
      ],
    });
    expect(over.status).toBe(409);
    expect(over.body.errors).toEqual([
      `lines[1].quantity: order line ${lineA.id} shipped 3, earlier returns claim 3, returning 1`,
    ]);
    // Lines of one order line add up.
    const twice = await createReturn({
      orderId: order.id,
      lines: [
        { orderLineId: lineB.id, quantity: 1, reason: "damaged" },
        { orderLineId: lineB.id, quantity: 1, reason: "too_small" },
      ],
    });
    expect(twice.body.errors).toEqual([
      `lines[1].quantity: order line ${lineB.id} shipped 2, earlier returns claim 1, returning 2`,
    ]);

    // A rejected return claims nothing any more.
    expect((await setReturnStatus(second.body.data.id, "rejected")).body.data).toMatchObject({
      status: "rejected",
      rejectedAt: expect.any(String),
    });
    expect(
      (
        await createReturn({
          orderId: order.id,
          lines: [{ orderLineId: lineA.id, quantity: 1, reason: "x" }],
        })
      ).status,
    ).toBe(201);

    const created = await outboxEvents(tenant, /^return\.created$/);
    expect(created.find((e) => e.payload.id === first.body.data.id)?.payload).toEqual(first.body.data);
  });

  it("counts only dispatched shipments as shipped, and refuses lines not on the order", async () => {
    const warehouse = await createWarehouse(tenant);
    const bin = await createLocation(tenant, warehouse.id);
    const product = await createProduct(tenant);
    await adjustStock(tenant, product.id, bin.id, 5);
    const order = (
      await salesOrder(tenant, [{ productId: product.id, quantity: 2 }], { warehouseId: warehouse.id })
    ).body.data;
    await setStatus(tenant, order.id, { status: "confirmed" });
    const line = order.lines[0]?.id as string;
    const shipment = await call("POST", `/orders/${order.id}/shipments`, {
      headers: tenant.admin,
      body: { packages: [{ weight: { value: 1, unit: "kg" }, lines: [{ orderLineId: line, quantity: 2 }] }] },
    });
    expect(shipment.status).toBe(201);
    const packed = await createReturn({
      orderId: order.id,
      lines: [{ orderLineId: line, quantity: 1, reason: "x" }],
    });
    expect(packed.status).toBe(409);
    expect(packed.body.errors).toEqual([
      `lines[0].quantity: order line ${line} shipped 0, earlier returns claim 0, returning 1`,
    ]);
    await call("POST", `/shipments/${shipment.body.data.id}/dispatch`, { headers: tenant.admin });
    expect(
      (await createReturn({ orderId: order.id, lines: [{ orderLineId: line, quantity: 2, reason: "x" }] }))
        .status,
    ).toBe(201);

    const unknown = crypto.randomUUID();
    const notOnOrder = await createReturn({
      orderId: order.id,
      lines: [{ orderLineId: unknown, quantity: 1, reason: "x" }],
    });
    expect(notOnOrder.status).toBe(404);
    expect(notOnOrder.body.errors).toEqual([
      `lines[0].orderLineId: line ${unknown} not found on order ${order.number}`,
    ]);
  });
});

describe("POST /returns/{id}/receipts", () => {
  it("restocks, quarantines and scraps in partial receipts; received, then closed", async () => {
    const { warehouse, bin, quarantine, products, order, lines } = await shippedOrder([5]);
    const product = products[0]?.id as string;
    const rma = (
      await createReturn({
        orderId: order.id,
        lines: [{ orderLineId: lines[0]?.id as string, quantity: 4, reason: "damaged" }],
      })
    ).body.data;
    const line = rma.lines[0]?.id as string;
    const early = await receive(rma.id, [
      { returnLineId: line, quantity: 1, disposition: "restock", locationId: bin.id },
    ]);
    expect(early.status).toBe(409);
    expect(early.body.message).toBe(
      `Return ${rma.number} is requested; goods are received while it is authorized`,
    );
    expect((await setReturnStatus(rma.id, "authorized")).body.data.authorizedAt).toEqual(expect.any(String));

    const wrongPlace = await receive(rma.id, [
      { returnLineId: line, quantity: 1, disposition: "restock", locationId: quarantine.id },
      { returnLineId: line, quantity: 1, disposition: "quarantine", locationId: bin.id },
    ]);
    expect(wrongPlace.status).toBe(409);
    expect(wrongPlace.body.errors).toEqual([
      `lines[0].locationId: location ${quarantine.code} is not sellable; restock puts units at a sellable location`,
      `lines[1].locationId: location ${bin.code} is sellable; quarantine puts units at a non-sellable location`,
    ]);

    const first = await receive(rma.id, [
      { returnLineId: line, quantity: 2, disposition: "restock", locationId: bin.id },
      { returnLineId: line, quantity: 1, disposition: "quarantine", locationId: quarantine.id },
    ]);
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ status: "authorized", lines: [{ receivedQuantity: 3 }] });
    expect(first.body.data.receipts).toMatchObject([
      {
        lines: [
          { returnLineId: line, productId: product, quantity: 2, disposition: "restock", locationId: bin.id },
          { quantity: 1, disposition: "quarantine", locationId: quarantine.id, warehouseId: warehouse.id },
        ],
      },
    ]);
    const over = await receive(rma.id, [{ returnLineId: line, quantity: 2, disposition: "scrap" }]);
    expect(over.status).toBe(409);
    expect(over.body.errors).toEqual([
      "lines[0].quantity: return line 1 authorized 4, received 3, receiving 2",
    ]);

    const last = await receive(rma.id, [{ returnLineId: line, quantity: 1, disposition: "scrap" }]);
    expect(last.status).toBe(200);
    expect(last.body.data).toMatchObject({ status: "received", receivedAt: expect.any(String) });
    expect(last.body.data.receipts).toHaveLength(2);

    // Stock: 10 - 5 shipped + 2 restocked in the bin; 1 on hand but not available in quarantine; scrap left none.
    const levels = await checkedStockOf(tenant, product);
    const at = (id: string) => levels.find((l) => l.locationId === id);
    expect(at(bin.id)?.onHand).toBe(7);
    expect(at(quarantine.id)?.onHand).toBe(1);
    expect(levels.reduce((sum, l) => sum + l.onHand, 0)).toBe(8);
    const stock = await call("GET", `/inventory/stock?productId=${product}`, { headers: tenant.admin });
    expect(
      levelsIn(stock.body.data).map((l) => [
        l.locationId,
        l.onHand,
        "available" in l && l.available,
        "sellable" in l && l.sellable,
      ]),
    ).toEqual(
      expect.arrayContaining([
        [bin.id, 7, 7, true],
        [quarantine.id, 1, 0, false],
      ]),
    );

    const moves = await call("GET", `/inventory/movements?reference=${rma.id}`, { headers: tenant.admin });
    expect(moves.status, JSON.stringify(moves.body)).toBe(200);
    expect(moves.body.data.items.map((m) => [m.reason, m.delta]).sort()).toEqual(
      [
        ["return_quarantine", 1],
        ["return_received", 1],
        ["return_restock", 2],
        ["return_scrap", -1],
      ].sort(),
    );
    const today = new Date().toISOString().slice(0, 10);
    const report = await call(
      "GET",
      `/reports/stock-movements?from=${today}&to=${today}&reason=return_scrap&productId=${product}`,
      { headers: tenant.admin },
    );
    expect(report.status, JSON.stringify(report.body)).toBe(200);
    expect(report.body.data.items).toMatchObject([
      { delta: -1, reason: "return_scrap", referenceId: rma.id },
    ]);

    // The returns report counts what came back by reason and disposition (this test's tenant has other returns).
    const returned = await call("GET", `/reports/returns?from=${today}&to=${today}`, {
      headers: tenant.admin,
    });
    expect(returned.status, JSON.stringify(returned.body)).toBe(200);
    const damaged = returned.body.data.items.filter((r) => r.reason === "damaged");
    expect(damaged.map((r) => r.disposition)).toEqual(["quarantine", "restock", "scrap"]);
    expect(returned.body.data.totals.byDisposition.map((d) => d.disposition)).toEqual([
      "quarantine",
      "restock",
      "scrap",
    ]);
    expect(returned.body.data.totals.units).toBe(
      returned.body.data.items.reduce((sum, r) => sum + r.units, 0),
    );
    const csv = await fetchApi(
      new Request(`${BASE}/reports/returns?from=${today}&to=${today}&format=csv`, { headers: tenant.admin }),
    );
    expect((await csv.text()).split("\r\n")[0]).toBe("reason,disposition,units,returns");
    const received = await outboxEvents(tenant, /^return\.received$/);
    expect(received.find((e) => e.payload.id === rma.id)?.payload).toEqual(last.body.data);
    const closed = await setReturnStatus(rma.id, "closed");
    expect(closed.body.data).toMatchObject({ status: "closed", closedAt: expect.any(String) });
    expect(
      (await outboxEvents(tenant, /^return\.closed$/)).find((e) => e.payload.id === rma.id)?.payload,
    ).toEqual(closed.body.data);
    expect((await call("GET", `/returns/${rma.id}`, { headers: tenant.admin })).body.data).toEqual(
      closed.body.data,
    );
    expect((await setReturnStatus(rma.id, "authorized")).status).toBe(409);
  });

  it("10 concurrent receipts of one return never receive more than authorized", async () => {
    const { bin, products, order, lines } = await shippedOrder([5]);
    const rma = (
      await createReturn({
        orderId: order.id,
        lines: [{ orderLineId: lines[0]?.id as string, quantity: 3, reason: "x" }],
      })
    ).body.data;
    await setReturnStatus(rma.id, "authorized");
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        receive(rma.id, [
          {
            returnLineId: rma.lines[0]?.id as string,
            quantity: 1,
            disposition: "restock",
            locationId: bin.id,
          },
        ]),
      ),
    );
    expect(results.every((r) => r.status === 200 || r.status === 409)).toBe(true);
    const ok = results.filter((r) => r.status === 200).length;
    expect(ok).toBeGreaterThan(0);
    expect(ok).toBeLessThanOrEqual(3);
    const after = (await call("GET", `/returns/${rma.id}`, { headers: tenant.admin })).body.data;
    expect(after.lines[0]?.receivedQuantity).toBe(ok);
    expect(after.receipts).toHaveLength(ok);
    const levels = await checkedStockOf(tenant, products[0]?.id as string);
    expect(levels.find((l) => l.locationId === bin.id)?.onHand).toBe(5 + ok);
  });
});
