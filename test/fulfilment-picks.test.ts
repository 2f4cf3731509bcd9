import { beforeAll, describe, expect, it } from "vitest";
import {
  adjustStock,
  createLocation,
  createProduct,
  createTenant,
  createWarehouse,
  receiveLot,
  salesOrder,
  setStatus,
  type TestTenant,
} from "./support/builders";
import { checkedStockOf, openReservations, outboxEvents, tenantDatabase } from "./support/database";
import { call } from "./support/http";

let tenant: TestTenant;
let other: TestTenant;
beforeAll(async () => {
  [tenant, other] = await Promise.all([createTenant(), createTenant()]);
});

/** A bin holding `stock` of a new product (with `product` fields), a confirmed order for `quantity`, its pick list. */
async function pickable(stock: number, quantity: number, product: Record<string, unknown> = {}) {
  const warehouse = await createWarehouse(tenant);
  const bin = await createLocation(tenant, warehouse.id);
  const item = await createProduct(tenant, product);
  if (product.tracking !== "lot") await adjustStock(tenant, item.id, bin.id, stock);
  else await receiveLot(tenant, item.id, bin.id, stock, { lotNumber: "L-1", expiresAt: "2099-01-01" });
  const order = await salesOrder(tenant, [{ productId: item.id, quantity }], { warehouseId: warehouse.id });
  expect(order.status).toBe(201);
  await setStatus(tenant, order.body.data.id, { status: "confirmed" });
  const list = await call("POST", "/pick-lists", {
    headers: tenant.admin,
    body: { warehouseId: warehouse.id, orderIds: [order.body.data.id] },
  });
  expect(list.status).toBe(201);
  const packing = await call("GET", `/locations?warehouseId=${warehouse.id}&type=packing`, {
    headers: tenant.admin,
  });
  return {
    warehouse,
    bin,
    product: item,
    order: order.body.data,
    list: list.body.data,
    line: list.body.data.lines[0] as { id: string; lineNo: number },
    packingId: packing.body.data.items[0]?.id as string,
  };
}

const pick = (listId: string, body: Record<string, unknown>, headers = tenant.admin) =>
  call("POST", `/pick-lists/${listId}/picks`, { headers, body });

describe("POST /pick-lists/{id}/picks", () => {
  it("moves the units from the bin to the packing location with their reservation, a `pick` ledger row on each side", async () => {
    const { bin, product, order, list, line, packingId } = await pickable(10, 3, { barcode: "96385074" });
    // Scanned as a scanner sends them: the location's code and the product's barcode.
    const first = await pick(list.id, {
      location: bin.code,
      product: "96385074",
      quantity: 2,
      toteCode: "T-7",
    });
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({
      status: "in_progress",
      lines: [{ id: line.id, pickedQuantity: 2, shortQuantity: 0, status: "open" }],
    });
    const levels = await checkedStockOf(tenant, product.id);
    expect(levels.find((l) => l.locationId === bin.id)).toMatchObject({ onHand: 8, reserved: 1 });
    expect(levels.find((l) => l.locationId === packingId)).toMatchObject({ onHand: 2, reserved: 2 });
    expect(await openReservations(tenant, product.id)).toBe(3);
    const moves = await call("GET", `/inventory/movements?reference=${list.id}`, { headers: tenant.admin });
    expect(
      moves.body.data.items.map((m) => [m.locationId, m.delta, m.reason, m.referenceType, m.notes]).sort(),
    ).toEqual(
      [
        [bin.id, -2, "pick", "pick_list", "tote T-7"],
        [packingId, 2, "pick", "pick_list", "tote T-7"],
      ].sort(),
    );

    // By SKU and location id, naming the line: the last unit completes the line and the list.
    const last = await pick(list.id, {
      lineId: line.id,
      location: bin.id,
      product: product.sku,
      quantity: 1,
    });
    expect(last.body.data).toMatchObject({
      status: "completed",
      lines: [{ pickedQuantity: 3, status: "picked" }],
    });
    expect(last.body.data.completedAt).not.toBeNull();
    const completed = await outboxEvents(tenant, /^pick_list\.completed$/);
    expect(completed.filter((e) => e.payload.id === list.id).map((e) => e.payload)).toEqual([last.body.data]);
    expect((await pick(list.id, { location: bin.code, product: product.sku, quantity: 1 })).status).toBe(409);

    // The order is still picking, its reservation now at the packing location: shipping it consumes that.
    const shipped = await setStatus(tenant, order.id, { status: "shipped", trackingNumber: "1Z-PICKED" });
    expect(shipped.status).toBe(200);
    const after = await checkedStockOf(tenant, product.id);
    expect(after.find((l) => l.locationId === packingId)).toMatchObject({ onHand: 0, reserved: 0 });
    expect(after.find((l) => l.locationId === bin.id)).toMatchObject({ onHand: 7, reserved: 0 });
  });

  it("refuses a wrong location, product or lot naming what was expected, and more than the line asks", async () => {
    const { warehouse, bin, product, list, line } = await pickable(5, 4, { tracking: "lot" });
    const otherBin = await createLocation(tenant, warehouse.id);
    const otherProduct = await createProduct(tenant);
    const wrongBin = await pick(list.id, {
      lineId: line.id,
      location: otherBin.code,
      product: product.sku,
      quantity: 1,
      lotNumber: "L-1",
    });
    expect(wrongBin.status).toBe(409);
    expect(wrongBin.body.errors).toEqual([
      `location: expected ${bin.code} (line 1), scanned ${otherBin.code}`,
    ]);
    const wrongProduct = await pick(list.id, {
      location: bin.code,
      product: otherProduct.sku,
      quantity: 1,
      lotNumber: "L-1",
    });
    expect(wrongProduct.body.errors).toEqual([
      `product: expected ${product.sku} (line 1), scanned ${otherProduct.sku}`,
    ]);
    const wrongLot = await pick(list.id, {
      location: bin.code,
      product: product.sku,
      quantity: 1,
      lotNumber: "L-2",
    });
    expect(wrongLot.body.errors).toEqual(["lotNumber: expected L-1 (line 1), scanned L-2"]);
    const noLot = await pick(list.id, { location: bin.code, product: product.sku, quantity: 1 });
    expect(noLot.body.errors).toEqual(["lotNumber: expected L-1 (line 1), scanned no lot"]);
    const over = await pick(list.id, {
      location: bin.code,
      product: product.sku,
      quantity: 5,
      lotNumber: "L-1",
    });
    expect(over.status).toBe(409);
    expect(over.body.errors).toEqual(["quantity: line 1 asks for 4 more, picking 5"]);
    const bad = await pick(list.id, { location: bin.code, product: product.sku, quantity: 0 });
    expect(bad.status).toBe(400);
    // Nothing moved.
    const levels = await checkedStockOf(tenant, product.id);
    expect(levels).toMatchObject([{ locationId: bin.id, onHand: 5, reserved: 4 }]);
    expect(
      (await pick(list.id, { location: bin.code, product: product.sku, quantity: 4, lotNumber: "L-1" }))
        .status,
    ).toBe(200);
  });

  it("20 concurrent pickers on one line never pick more than it asks", async () => {
    const { bin, product, list, line, packingId } = await pickable(30, 5);
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        pick(list.id, { lineId: line.id, location: bin.code, product: product.sku, quantity: 1 }),
      ),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(5);
    expect(results.filter((r) => r.status !== 200).map((r) => r.status)).toEqual(Array(15).fill(409));
    const read = await call("GET", `/pick-lists/${list.id}`, { headers: tenant.admin });
    expect(read.body.data).toMatchObject({
      status: "completed",
      lines: [{ pickedQuantity: 5, status: "picked" }],
    });
    const levels = await checkedStockOf(tenant, product.id);
    expect(levels.find((l) => l.locationId === bin.id)).toMatchObject({ onHand: 25, reserved: 0 });
    expect(levels.find((l) => l.locationId === packingId)).toMatchObject({ onHand: 5, reserved: 5 });
    expect(await openReservations(tenant, product.id)).toBe(5);
    const completed = await outboxEvents(tenant, /^pick_list\.completed$/);
    expect(completed.filter((e) => e.payload.id === list.id)).toHaveLength(1);
  });

  it("a pick racing the order's cancellation ends in one consistent state", async () => {
    for (let round = 0; round < 3; round++) {
      const { bin, product, order, list, line } = await pickable(10, 4);
      const [picked, cancelled] = await Promise.all([
        pick(list.id, { lineId: line.id, location: bin.code, product: product.sku, quantity: 2 }),
        setStatus(tenant, order.id, { status: "cancelled" }),
      ]);
      expect([200, 409]).toContain(picked.status);
      expect([200, 409]).toContain(cancelled.status);
      const status = (await call("GET", `/orders/${order.id}`, { headers: tenant.admin })).body.data.status;
      const levels = await checkedStockOf(tenant, product.id);
      const reserved = levels.reduce((sum, l) => sum + l.reserved, 0);
      expect(reserved).toBe(await openReservations(tenant, product.id));
      expect(levels.reduce((sum, l) => sum + l.onHand, 0)).toBe(10);
      if (status === "cancelled") expect(reserved).toBe(0);
      else expect(reserved).toBe(4);
      // Whatever happened, the order and the stock agree with what the answers said.
      if (cancelled.status === 200) expect(status).toBe("cancelled");
      if (picked.status === 200 && cancelled.status === 409) expect(status).toBe("picking");
    }
  });

  it("moves the picked serial numbers to the packing location", async () => {
    const warehouse = await createWarehouse(tenant);
    const bin = await createLocation(tenant, warehouse.id);
    const item = await createProduct(tenant, { tracking: "serial" });
    await call("POST", "/inventory/adjustments", {
      headers: tenant.admin,
      body: {
        productId: item.id,
        locationId: bin.id,
        quantity: 3,
        reason: "received",
        serialNumbers: ["S1", "S2", "S3"],
      },
    });
    const order = await salesOrder(tenant, [{ productId: item.id, quantity: 2 }], {
      warehouseId: warehouse.id,
    });
    await setStatus(tenant, order.body.data.id, { status: "confirmed" });
    const list = (
      await call("POST", "/pick-lists", {
        headers: tenant.admin,
        body: { warehouseId: warehouse.id, orderIds: [order.body.data.id] },
      })
    ).body.data;
    const none = await pick(list.id, { location: bin.code, product: item.sku, quantity: 2 });
    expect(none.status).toBe(400);
    const missing = await pick(list.id, {
      location: bin.code,
      product: item.sku,
      quantity: 1,
      serialNumbers: ["S9"],
    });
    expect(missing.body.errors).toEqual([`serialNumbers: S9 is not in stock at ${bin.code}`]);
    const ok = await pick(list.id, {
      location: bin.code,
      product: item.sku,
      quantity: 2,
      serialNumbers: ["S1", "S3"],
    });
    expect(ok.status).toBe(200);
    const where = await (await tenantDatabase(tenant.id))
      .prepare(
        "select serial, location_id as locationId from serial_numbers where tenant_id = ? and product_id = ? order by serial",
      )
      .bind(tenant.id, item.id)
      .all<{ serial: string; locationId: string }>();
    const packing = (
      await call("GET", `/locations?warehouseId=${warehouse.id}&type=packing`, { headers: tenant.admin })
    ).body.data.items[0];
    expect(
      where.results.map((r) => [
        r.serial,
        r.locationId === bin.id ? "bin" : r.locationId === packing?.id ? "packing" : "?",
      ]),
    ).toEqual([
      ["S1", "packing"],
      ["S2", "bin"],
      ["S3", "packing"],
    ]);
    await checkedStockOf(tenant, item.id);
  });
});

describe("POST /pick-lists/{id}/shorts", () => {
  it("ships a partly shipped order when a short closes its last open units", async () => {
    const { bin, product, order, list, line } = await pickable(10, 4);
    await pick(list.id, { location: bin.code, product: product.sku, quantity: 1 });
    const shipped = await call("POST", `/orders/${order.id}/shipments`, {
      headers: tenant.admin,
      body: {
        packages: [
          { weight: { value: 1, unit: "kg" }, lines: [{ orderLineId: order.lines[0]?.id, quantity: 1 }] },
        ],
      },
    });
    expect(shipped.status).toBe(201);
    const short = await call("POST", `/pick-lists/${list.id}/shorts`, {
      headers: tenant.admin,
      body: { lineId: line.id, quantity: 3, reason: "bin empty" },
    });
    expect(short.status).toBe(200);
    const read = await call("GET", `/orders/${order.id}`, { headers: tenant.admin });
    expect(read.body.data).toMatchObject({
      status: "shipped",
      lines: [{ quantity: 4, shippedQuantity: 1, backorderedQuantity: 3 }],
    });
    expect(read.body.data.statusHistory.map((h: { to: string }) => h.to).slice(-2)).toEqual([
      "partially_shipped",
      "shipped",
    ]);
    const events = (await outboxEvents(tenant, /^order\.(shipped|partially_shipped|backordered)$/))
      .filter((e) => e.payload.id === order.id)
      .map((e) => e.type);
    expect(events).toEqual(["order.partially_shipped", "order.backordered", "order.shipped"]);
    const [last] = (await outboxEvents(tenant, /^order\.shipped$/)).filter((e) => e.payload.id === order.id);
    expect(last?.payload).toMatchObject({ status: "shipped", shipments: [{ id: shipped.body.data.id }] });
    expect(await openReservations(tenant, product.id)).toBe(0);
  });

  it("releases the shortfall's reservation and backorders it on the order line", async () => {
    const { bin, product, order, list, line } = await pickable(10, 4);
    await pick(list.id, { location: bin.code, product: product.sku, quantity: 1 });
    const short = await call("POST", `/pick-lists/${list.id}/shorts`, {
      headers: tenant.admin,
      body: { lineId: line.id, quantity: 3, reason: "bin empty" },
    });
    expect(short.status).toBe(200);
    expect(short.body.data).toMatchObject({
      status: "completed",
      lines: [{ pickedQuantity: 1, shortQuantity: 3, status: "short" }],
    });
    const read = await call("GET", `/orders/${order.id}`, { headers: tenant.admin });
    expect(read.body.data.lines[0]).toMatchObject({
      quantity: 4,
      shippedQuantity: 0,
      backorderedQuantity: 3,
    });
    expect(await openReservations(tenant, product.id)).toBe(1);
    const levels = await checkedStockOf(tenant, product.id);
    expect(levels.find((l) => l.locationId === bin.id)).toMatchObject({ onHand: 9, reserved: 0 });
    const events = (await outboxEvents(tenant, /^order\.backordered$/)).filter(
      (e) => e.payload.id === order.id,
    );
    expect(events).toHaveLength(1);
    expect(events[0]?.payload).toMatchObject({
      id: order.id,
      lines: [{ backorderedQuantity: 3 }],
      backorder: {
        pickListId: list.id,
        pickListLineId: line.id,
        orderLineId: order.lines[0]?.id,
        quantity: 3,
        reason: "bin empty",
      },
    });
    const again = await call("POST", `/pick-lists/${list.id}/shorts`, {
      headers: tenant.admin,
      body: { lineId: line.id, quantity: 1, reason: "x" },
    });
    expect(again.status).toBe(409);
    const foreign = await call("POST", `/pick-lists/${list.id}/shorts`, {
      headers: other.admin,
      body: { lineId: line.id, quantity: 1, reason: "x" },
    });
    expect(foreign.status).toBe(404);
    expect(
      (await pick(list.id, { location: bin.code, product: product.sku, quantity: 1 }, other.admin)).status,
    ).toBe(404);
  });
});
