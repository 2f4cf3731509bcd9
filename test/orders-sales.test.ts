import { describe, expect, it } from "vitest";
import {
  adjustStock,
  createProduct,
  createTenant,
  createWarehouse,
  newBins,
  salesOrder,
  seedLocation,
  seedStockedProducts,
  seedWarehouse,
  setStatus,
  stockedProduct,
} from "./support/builders";
import { openReservations, outboxEvents, outboxTypes, stockOf } from "./support/database";
import { call } from "./support/http";

describe("creating a sales order", () => {
  it("reserves stock, numbers the order and computes exact totals", async () => {
    const tenant = await createTenant();
    const { productId } = await stockedProduct(tenant, 10);
    const res = await salesOrder(tenant, [
      { productId, quantity: 3, price: 0.1 },
      { productId, quantity: 1, price: 0.2 },
    ]);
    expect(res.status).toBe(201);
    const order = res.body.data;
    expect(res.headers.get("location")).toBe(`/api/v1/orders/${order.id}`);
    expect(order).toMatchObject({
      number: "SO-000001",
      type: "sales",
      status: "pending",
      totals: { quantity: 4, total: 0.5 },
      allowedTransitions: ["confirmed", "picking", "packed", "shipped", "delivered", "cancelled"],
    });
    expect(order.lines.map((l: { lineTotal: number }) => l.lineTotal)).toEqual([0.3, 0.2]);
    expect(order.statusHistory).toEqual([
      { from: null, to: "pending", at: order.createdAt, by: { type: "api_key", id: expect.any(String) } },
    ]);
    expect(await stockOf(tenant, productId)).toMatchObject([{ onHand: 10, reserved: 4, ledger: 10 }]);
    expect(await outboxTypes(tenant)).toEqual(["order.created"]);

    const fetched = await call("GET", `/orders/${order.id}`, { headers: tenant.admin });
    expect(fetched.status).toBe(200);
    // GET adds what became of each line (the create answer's lines are all reserved, none picked yet) and names
    // each line's product.
    const product = (await call("GET", `/products/${productId}`, { headers: tenant.admin })).body.data;
    expect(fetched.body.data).toEqual({
      ...order,
      lines: order.lines.map((line) => ({
        ...line,
        reservedQuantity: line.quantity,
        pickedQuantity: 0,
        sku: product.sku,
        productName: product.name,
      })),
    });
  });

  it("numbers each tenant's orders on their own", async () => {
    const [a, b] = [await createTenant(), await createTenant()];
    const stockA = await stockedProduct(a, 5);
    const stockB = await stockedProduct(b, 5);
    expect((await salesOrder(a, [{ productId: stockA.productId, quantity: 1 }])).body.data.number).toBe(
      "SO-000001",
    );
    expect((await salesOrder(a, [{ productId: stockA.productId, quantity: 1 }])).body.data.number).toBe(
      "SO-000002",
    );
    expect((await salesOrder(b, [{ productId: stockB.productId, quantity: 1 }])).body.data.number).toBe(
      "SO-000001",
    );
  });

  it("splits a line over locations and takes only from the given warehouse", async () => {
    const tenant = await createTenant();
    const { id: productId, sku } = await createProduct(tenant);
    const near = (await createWarehouse(tenant)).id;
    const far = (await createWarehouse(tenant)).id;
    const [bin1 = "", bin2 = ""] = await newBins(tenant, near, 2);
    const [farBin = ""] = await newBins(tenant, far, 1);
    await adjustStock(tenant, productId, bin1, 4);
    await adjustStock(tenant, productId, bin2, 3);
    await adjustStock(tenant, productId, farBin, 100);

    const short = await salesOrder(tenant, [{ productId, quantity: 8 }], { warehouseId: near });
    expect(short.status).toBe(409);
    // The product is named by its SKU, then its id.
    expect(short.body.errors).toEqual([`lines[0]: product ${sku} (${productId}) requested 8, available 7`]);

    const res = await salesOrder(tenant, [{ productId, quantity: 6 }], { warehouseId: near });
    expect(res.status).toBe(201);
    const levels = await stockOf(tenant, productId);
    const reserved = Object.fromEntries(levels.map((l) => [l.locationId, l.reserved]));
    expect(reserved).toEqual({ [bin1]: 4, [bin2]: 2, [farBin]: 0 });

    // Shipping consumes from both bins; every level's ledger still sums to its onHand.
    expect((await setStatus(tenant, res.body.data.id, { status: "shipped" })).status).toBe(200);
    const after = await stockOf(tenant, productId);
    expect(Object.fromEntries(after.map((l) => [l.locationId, [l.onHand, l.reserved, l.ledger]]))).toEqual({
      [bin1]: [0, 0, 0],
      [bin2]: [1, 0, 1],
      [farBin]: [100, 0, 100],
    });
  });

  it("refuses short stock naming every short line, and writes nothing", async () => {
    const tenant = await createTenant();
    const a = await stockedProduct(tenant, 5, { product: { sku: "SHORT-A" } });
    const b = await stockedProduct(tenant, 1, { product: { sku: "SHORT-B" } });
    const c = await stockedProduct(tenant, 9);
    const res = await salesOrder(tenant, [
      { productId: a.productId, quantity: 6 },
      { productId: c.productId, quantity: 2 },
      { productId: b.productId, quantity: 2 },
    ]);
    expect(res.status).toBe(409);
    expect(res.body.message).toBe("Insufficient stock");
    expect(res.body.errors).toEqual([
      `lines[0]: product SHORT-A (${a.productId}) requested 6, available 5`,
      `lines[2]: product SHORT-B (${b.productId}) requested 2, available 1`,
    ]);
    expect(await stockOf(tenant, c.productId)).toMatchObject([{ reserved: 0 }]);
    expect(await outboxTypes(tenant)).toEqual([]);
    const list = await call("GET", "/orders", { headers: tenant.admin });
    expect(list.body.data.totalCount).toBe(0);
  });

  it("refuses Inactive products (409) and unknown products or warehouses (404)", async () => {
    const tenant = await createTenant();
    const inactive = await stockedProduct(tenant, 5, { product: { status: "Inactive" } });
    const res = await salesOrder(tenant, [{ productId: inactive.productId, quantity: 1 }]);
    expect(res.status).toBe(409);
    expect(res.body.errors?.[0]).toMatch(/^lines\[0\]\.productId: product SKU-.* is Inactive/);

    const unknown = crypto.randomUUID();
    const missing = await salesOrder(tenant, [{ productId: unknown, quantity: 1 }]);
    expect(missing.status).toBe(404);
    expect(missing.body.errors).toEqual([`lines[0].productId: product ${unknown} not found`]);

    const active = await stockedProduct(tenant, 5);
    const noWarehouse = await salesOrder(tenant, [{ productId: active.productId, quantity: 1 }], {
      warehouseId: crypto.randomUUID(),
    });
    expect(noWarehouse.status).toBe(404);
  });

  it("validates the body field by field", async () => {
    const tenant = await createTenant();
    const res = await call("POST", "/orders/sales", {
      headers: tenant.admin,
      body: {
        customerId: "nope",
        lines: [{ productId: crypto.randomUUID(), quantity: 0, price: 1.23456 }],
        shippingAddress: { street: "x", city: "y" },
        colour: "red",
      },
    });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^customerId: /),
        expect.stringMatching(/^lines\[0\]\.quantity: /),
        "lines[0].price: must have at most 4 decimals",
        expect.stringMatching(/^shippingAddress\.zip: /),
        "colour: unknown field",
      ]),
    );
    const empty = await call("POST", "/orders/sales", {
      headers: tenant.admin,
      body: {
        customerId: crypto.randomUUID(),
        lines: [],
        shippingAddress: { street: "x", city: "y", zip: "1" },
      },
    });
    expect(empty.status).toBe(400);
    expect(empty.body.errors).toEqual(["lines: must have at least one line"]);
  });

  it("takes the maximum of 500 lines in one order (each its own product) and refuses 501", async () => {
    const tenant = await createTenant();
    // Bulk data: 501 products holding 2 units each, written under the API with their ledger rows.
    const location = await seedLocation(tenant, await seedWarehouse(tenant));
    const productIds = await seedStockedProducts(tenant, location, 501, () => 2);
    const lines = productIds.map((productId) => ({ productId, quantity: 2, price: 0.01 }));
    const tooMany = await salesOrder(tenant, lines);
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.errors).toEqual(["lines: must have at most 500 lines"]);
    const res = await salesOrder(tenant, lines.slice(0, 500));
    expect(res.status).toBe(201);
    expect(res.body.data.totals).toEqual({ quantity: 1000, total: 10, totalExact: "10" });
    expect(await openReservations(tenant, productIds[499] as string)).toBe(2);
    const shipped = await setStatus(tenant, res.body.data.id, { status: "shipped" });
    expect(shipped.status).toBe(200);
    expect(await stockOf(tenant, productIds[0] as string)).toMatchObject([{ onHand: 0, ledger: 0 }]);
  });

  it("refuses a total too large to be exact with 400", async () => {
    const tenant = await createTenant();
    const { productId } = await stockedProduct(tenant, 5);
    const res = await salesOrder(tenant, [{ productId, quantity: 1_000_000_000, price: 1_000_000_000 }]);
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual(["lines: the order total must be at most 900719925474.0991"]);
  });
});

describe("sales order lifecycle", () => {
  it("walks pending -> confirmed -> picking -> packed -> shipped -> delivered; shipping consumes stock", async () => {
    const tenant = await createTenant();
    const { productId, locationId } = await stockedProduct(tenant, 10);
    const order = (await salesOrder(tenant, [{ productId, quantity: 4 }])).body.data;

    for (const status of ["confirmed", "picking", "packed"]) {
      const res = await setStatus(tenant, order.id, { status });
      expect(res.status, status).toBe(200);
      expect(res.body.data.status).toBe(status);
    }
    expect(await stockOf(tenant, productId)).toMatchObject([{ onHand: 10, reserved: 4 }]);

    const shipped = await setStatus(tenant, order.id, { status: "shipped", trackingNumber: "1Z999" });
    expect(shipped.status).toBe(200);
    expect(shipped.body.data).toMatchObject({
      status: "shipped",
      trackingNumber: "1Z999",
      allowedTransitions: ["delivered"],
    });
    expect(await stockOf(tenant, productId)).toEqual([
      { productId, locationId, lotId: "", onHand: 6, reserved: 0, ledger: 6 },
    ]);
    expect(await openReservations(tenant, productId)).toBe(0);
    const movements = await call("GET", `/orders/${order.id}`, { headers: tenant.admin });
    expect(movements.body.data.statusHistory.map((h: { to: string }) => h.to)).toEqual([
      "pending",
      "confirmed",
      "picking",
      "packed",
      "shipped",
    ]);

    const delivered = await setStatus(tenant, order.id, { status: "delivered" });
    expect(delivered.status).toBe(200);
    expect(delivered.body.data.allowedTransitions).toEqual([]);
    expect(delivered.body.data.statusHistory.at(-1)).toMatchObject({ from: "shipped", to: "delivered" });
    expect(await outboxTypes(tenant)).toEqual([
      "order.created",
      "order.status_changed",
      "order.status_changed",
      "order.status_changed",
      "order.status_changed",
      "order.shipped",
      "order.status_changed",
      "order.delivered",
    ]);
  });

  it("writes shipped ledger rows that point at the order", async () => {
    const tenant = await createTenant();
    const { productId } = await stockedProduct(tenant, 10);
    const order = (await salesOrder(tenant, [{ productId, quantity: 4 }])).body.data;
    await setStatus(tenant, order.id, { status: "shipped" });
    const shipped = await call("GET", "/inventory/movements?reason=shipped", { headers: tenant.admin });
    expect(shipped.body.data.items).toEqual([
      expect.objectContaining({
        delta: -4,
        onHandAfter: 6,
        reason: "shipped",
        referenceType: "order",
        referenceId: order.id,
      }),
    ]);
  });

  it("skips forward straight to shipped, and cancelling releases the reservation", async () => {
    const tenant = await createTenant();
    const { productId } = await stockedProduct(tenant, 10);
    const first = (await salesOrder(tenant, [{ productId, quantity: 3 }])).body.data;
    const second = (await salesOrder(tenant, [{ productId, quantity: 5 }])).body.data;
    expect((await setStatus(tenant, first.id, { status: "shipped" })).status).toBe(200);
    const cancelled = await setStatus(tenant, second.id, { status: "cancelled" });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data.allowedTransitions).toEqual([]);
    expect(await stockOf(tenant, productId)).toMatchObject([{ onHand: 7, reserved: 0, ledger: 7 }]);
    expect(await openReservations(tenant, productId)).toBe(0);
    expect(await outboxTypes(tenant)).toContain("order.cancelled");
  });

  it("refuses every illegal transition with 409 naming the allowed next statuses, changing nothing", async () => {
    const tenant = await createTenant();
    const { productId } = await stockedProduct(tenant, 10);
    const order = (await salesOrder(tenant, [{ productId, quantity: 2 }])).body.data;
    await setStatus(tenant, order.id, { status: "packed" });

    for (const status of ["pending", "confirmed", "picking", "packed", "draft", "ordered", "received"]) {
      const res = await setStatus(tenant, order.id, { status });
      expect(res.status, status).toBe(409);
      expect(res.body.errors).toEqual([
        `status: sales order ${order.number} is packed; allowed next statuses: shipped, delivered, cancelled`,
      ]);
    }
    await setStatus(tenant, order.id, { status: "shipped" });
    const cancelAfterShip = await setStatus(tenant, order.id, { status: "cancelled" });
    expect(cancelAfterShip.status).toBe(409);
    expect(cancelAfterShip.body.errors).toEqual([
      `status: sales order ${order.number} is shipped; allowed next statuses: delivered`,
    ]);
    await setStatus(tenant, order.id, { status: "delivered" });
    const afterDelivered = await setStatus(tenant, order.id, { status: "cancelled" });
    expect(afterDelivered.body.errors).toEqual([
      `status: sales order ${order.number} is delivered; allowed next statuses: none (delivered is final)`,
    ]);
    expect(await stockOf(tenant, productId)).toMatchObject([{ onHand: 8, reserved: 0, ledger: 8 }]);
  });

  it("skipping from pending straight to delivered ships the stock and emits both events", async () => {
    const tenant = await createTenant();
    const { productId } = await stockedProduct(tenant, 10);
    const order = (await salesOrder(tenant, [{ productId, quantity: 4 }])).body.data;
    const res = await setStatus(tenant, order.id, { status: "delivered", trackingNumber: "T-1" });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ status: "delivered", trackingNumber: "T-1" });
    expect(await stockOf(tenant, productId)).toMatchObject([{ onHand: 6, reserved: 0, ledger: 6 }]);
    expect((await outboxTypes(tenant)).slice(1)).toEqual([
      "order.status_changed",
      "order.shipped",
      "order.delivered",
    ]);
  });

  it("refuses a trackingNumber with a status that does not ship (400) and an unknown status (400)", async () => {
    const tenant = await createTenant();
    const { productId } = await stockedProduct(tenant, 10);
    const order = (await salesOrder(tenant, [{ productId, quantity: 2 }])).body.data;
    const res = await setStatus(tenant, order.id, { status: "confirmed", trackingNumber: "X" });
    expect(res.status).toBe(400);
    expect((await setStatus(tenant, order.id, { status: "lost" })).status).toBe(400);
  });
});

describe("sales orders under concurrency", () => {
  it("50 concurrent orders for 20 units: exactly 20 succeed, nothing oversold, reserved equals open reservations", async () => {
    const tenant = await createTenant();
    const productId = (await createProduct(tenant)).id;
    const warehouseId = (await createWarehouse(tenant)).id;
    const [first = "", second = ""] = await newBins(tenant, warehouseId, 2);
    await adjustStock(tenant, productId, first, 12);
    await adjustStock(tenant, productId, second, 8);

    const results = await Promise.all(
      Array.from({ length: 50 }, () => salesOrder(tenant, [{ productId, quantity: 1 }])),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(20);
    expect(statuses.filter((s) => s === 409)).toHaveLength(30);
    const levels = await stockOf(tenant, productId);
    expect(levels.reduce((sum, l) => sum + l.reserved, 0)).toBe(20);
    expect(levels.every((l) => l.reserved <= l.onHand)).toBe(true);
    expect(await openReservations(tenant, productId)).toBe(20);
    // Gapless numbers: the 20 winners hold SO-000001..SO-000020.
    const numbers = results.filter((r) => r.status === 201).map((r) => r.body.data.number as string);
    expect(numbers.sort()).toEqual(
      Array.from({ length: 20 }, (_, i) => `SO-${String(i + 1).padStart(6, "0")}`),
    );
  });

  it("two conflicting status changes at once: exactly one wins, the other gets 409", async () => {
    const tenant = await createTenant();
    const { productId } = await stockedProduct(tenant, 10);
    for (let round = 0; round < 5; round++) {
      const order = (await salesOrder(tenant, [{ productId, quantity: 1 }])).body.data;
      const [ship, cancel] = await Promise.all([
        setStatus(tenant, order.id, { status: "shipped" }),
        setStatus(tenant, order.id, { status: "cancelled" }),
      ]);
      expect([ship.status, cancel.status].sort()).toEqual([200, 409]);
      const final = (await call("GET", `/orders/${order.id}`, { headers: tenant.admin })).body.data;
      expect(final.statusHistory).toHaveLength(2);
      expect(final.status).toBe(ship.status === 200 ? "shipped" : "cancelled");
    }
    const [level] = await stockOf(tenant, productId);
    expect(level?.reserved).toBe(0);
    expect(level?.onHand).toBe(level?.ledger);
  });
});

describe("order events", () => {
  it("carries the full order, number included, in order.created", async () => {
    const tenant = await createTenant();
    const { productId } = await stockedProduct(tenant, 5);
    const order = (await salesOrder(tenant, [{ productId, quantity: 2, price: 3.5 }])).body.data;
    const [event] = await outboxEvents(tenant, /^order\.created$/);
    expect(event?.payload).toEqual(order);
  });

  it("emits inventory.low_stock once, when a reservation takes available to the reorder point", async () => {
    const tenant = await createTenant();
    const { productId } = await stockedProduct(tenant, 10, { product: { reorderPoint: 5 } });
    await salesOrder(tenant, [{ productId, quantity: 4 }]);
    expect(await outboxTypes(tenant)).toEqual(["order.created"]);
    await salesOrder(tenant, [{ productId, quantity: 1 }]);
    expect(await outboxTypes(tenant)).toEqual(["order.created", "order.created", "inventory.low_stock"]);
    await salesOrder(tenant, [{ productId, quantity: 1 }]);
    expect((await outboxTypes(tenant)).filter((t) => t === "inventory.low_stock")).toHaveLength(1);
    const [event] = await outboxEvents(tenant, /^inventory\.low_stock$/);
    expect(event?.payload).toMatchObject({
      productId,
      reorderPoint: 5,
      onHand: 10,
      reserved: 5,
      available: 5,
    });
  });
});
