import { beforeAll, describe, expect, it } from "vitest";
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
import { call } from "./support/http";

// What the order page shows (issue #45): GET /orders/{id} tells per sales line what became of its units
// (reserved now, picked on pick lists, shipped, backordered), a kit's components with their own figures, and
// the customer's name.

let tenant: TestTenant;
let other: TestTenant;
let warehouseId: string;
let bin: { id: string; code: string };
beforeAll(async () => {
  [tenant, other] = await Promise.all([createTenant(), createTenant()]);
  warehouseId = (await createWarehouse(tenant)).id;
  bin = await createLocation(tenant, warehouseId);
});

const orderOf = async (id: string, who = tenant) => call("GET", `/orders/${id}`, { headers: who.admin });

const figures = (line: Record<string, unknown>) => ({
  quantity: line.quantity,
  reservedQuantity: line.reservedQuantity,
  pickedQuantity: line.pickedQuantity,
  shippedQuantity: line.shippedQuantity,
  backorderedQuantity: line.backorderedQuantity,
});

describe("GET /orders/{id}: each sales line's figures", () => {
  it("follows a line through reserving, picking, shipping part and a short pick", async () => {
    const product = await createProduct(tenant);
    await adjustStock(tenant, product.id, bin.id, 10);
    const created = await salesOrder(tenant, [{ productId: product.id, quantity: 5 }], { warehouseId });
    expect(created.status).toBe(201);
    const order = created.body.data;
    const read = async () => figures((await orderOf(order.id)).body.data.lines[0] ?? {});
    expect(await read()).toEqual({
      quantity: 5,
      reservedQuantity: 5,
      pickedQuantity: 0,
      shippedQuantity: 0,
      backorderedQuantity: 0,
    });

    await setStatus(tenant, order.id, { status: "confirmed" });
    const list = await call("POST", "/pick-lists", {
      headers: tenant.admin,
      body: { warehouseId, orderIds: [order.id] },
    });
    expect(list.status).toBe(201);
    const picked = await call("POST", `/pick-lists/${list.body.data.id}/picks`, {
      headers: tenant.admin,
      body: { location: bin.code, product: product.sku, quantity: 3 },
    });
    expect(picked.status).toBe(200);
    expect(await read()).toMatchObject({ reservedQuantity: 5, pickedQuantity: 3, shippedQuantity: 0 });

    const shipped = await call("POST", `/orders/${order.id}/shipments`, {
      headers: tenant.admin,
      body: {
        packages: [
          { weight: { value: 1, unit: "kg" }, lines: [{ orderLineId: order.lines[0]?.id, quantity: 2 }] },
        ],
      },
    });
    expect(shipped.status).toBe(201);
    expect(await read()).toEqual({
      quantity: 5,
      reservedQuantity: 3,
      pickedQuantity: 3,
      shippedQuantity: 2,
      backorderedQuantity: 0,
    });

    const short = await call("POST", `/pick-lists/${list.body.data.id}/shorts`, {
      headers: tenant.admin,
      body: { lineId: list.body.data.lines[0]?.id, quantity: 2, reason: "bin empty" },
    });
    expect(short.status).toBe(200);
    // 1 picked unit waits at packing (reserved); 2 shipped; 2 backordered: nothing is counted twice.
    expect(await read()).toEqual({
      quantity: 5,
      reservedQuantity: 1,
      pickedQuantity: 3,
      shippedQuantity: 2,
      backorderedQuantity: 2,
    });
  });

  it("shows a kit's components with their own figures under the kit line, which keeps the price", async () => {
    const parts = [await createProduct(tenant), await createProduct(tenant)];
    for (const part of parts) await adjustStock(tenant, part.id, bin.id, 10);
    const kit = await createProduct(tenant, {
      type: "kit",
      components: [
        { productId: parts[0]?.id, quantity: 2 },
        { productId: parts[1]?.id, quantity: 1 },
      ],
    });
    const created = await salesOrder(tenant, [{ productId: kit.id, quantity: 3, price: 25 }], {
      warehouseId,
    });
    expect(created.status).toBe(201);
    const order = (await orderOf(created.body.data.id)).body.data;
    expect(order.kitLines).toMatchObject([{ productId: kit.id, quantity: 3, price: 25, lineTotal: 75 }]);
    const kitLineId = order.kitLines[0]?.id;
    expect(
      order.lines.map((line) => ({ productId: line.productId, kitLineId: line.kitLineId, ...figures(line) })),
    ).toEqual([
      {
        productId: parts[0]?.id,
        kitLineId,
        quantity: 6,
        reservedQuantity: 6,
        pickedQuantity: 0,
        shippedQuantity: 0,
        backorderedQuantity: 0,
      },
      {
        productId: parts[1]?.id,
        kitLineId,
        quantity: 3,
        reservedQuantity: 3,
        pickedQuantity: 0,
        shippedQuantity: 0,
        backorderedQuantity: 0,
      },
    ]);
  });

  it("gives a purchase order's lines no sales figures", async () => {
    const product = await createProduct(tenant);
    const created = await call("POST", "/orders/purchase", {
      headers: tenant.admin,
      body: { supplier: "Acme", warehouseId, lines: [{ productId: product.id, quantity: 4, cost: 1 }] },
    });
    expect(created.status).toBe(201);
    const [line] = (await orderOf(created.body.data.id)).body.data.lines;
    expect(line).toMatchObject({ quantity: 4, receivedQuantity: 0 });
    expect(line).not.toHaveProperty("reservedQuantity");
    expect(line).not.toHaveProperty("pickedQuantity");
  });
});

describe("a sales order's customer name", () => {
  it("is stored, shown on the order and in the list, and found by the list's search", async () => {
    const product = await createProduct(tenant);
    await adjustStock(tenant, product.id, bin.id, 1);
    const name = `Grace Hopper ${crypto.randomUUID().slice(0, 8)}`;
    const created = await salesOrder(tenant, [{ productId: product.id, quantity: 1 }], {
      customerName: name,
    });
    expect(created.status).toBe(201);
    expect(created.body.data.customerName).toBe(name);
    expect((await orderOf(created.body.data.id)).body.data.customerName).toBe(name);
    const found = await call("GET", `/orders?search=${encodeURIComponent(name.slice(6).toLowerCase())}`, {
      headers: tenant.admin,
    });
    expect(found.body.data.items.map((o) => [o.id, o.customerName])).toEqual([[created.body.data.id, name]]);
    // Another tenant neither reads the order nor finds it by the name.
    expect((await orderOf(created.body.data.id, other)).status).toBe(404);
    const elsewhere = await call("GET", `/orders?search=${encodeURIComponent(name)}`, {
      headers: other.admin,
    });
    expect(elsewhere.body.data.items).toEqual([]);
  });

  it("is optional (null when not given) and refused over 200 characters", async () => {
    const product = await createProduct(tenant);
    await adjustStock(tenant, product.id, bin.id, 1);
    const plain = await salesOrder(tenant, [{ productId: product.id, quantity: 1 }]);
    expect(plain.status).toBe(201);
    expect(plain.body.data.customerName).toBeNull();
    const long = await salesOrder(tenant, [{ productId: product.id, quantity: 1 }], {
      customerName: "x".repeat(201),
    });
    expect(long.status).toBe(400);
    expect(long.body.errors?.[0]).toMatch(/^customerName: /);
  });
});
