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
import { checkedStockOf } from "./support/database";
import { call } from "./support/http";

// Packs where the first pack-size work left plain quantities: holds, counts' counted, set levels (single and
// batch). Each converts `{packaging, packs}` to base units through src/stock/packs.ts before anything else; an
// unknown packaging is a 400 naming the field, and nothing is stored.

let tenant: TestTenant;
let warehouseId: string;
let bin: { id: string; code: string };
beforeAll(async () => {
  tenant = await createTenant();
  warehouseId = (await createWarehouse(tenant)).id;
  bin = await createLocation(tenant, warehouseId);
});

const packed = () =>
  createProduct(tenant, { packagings: [{ code: "case", name: "Case of 12", quantity: 12 }] });
const onHandAt = async (productId: string, locationId: string) =>
  (await checkedStockOf(tenant, productId)).find((l) => l.locationId === locationId)?.onHand;
const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString();

describe("holds in packs", () => {
  it("hold packs x size units; an unknown packaging or both forms is a 400", async () => {
    const product = await packed();
    await adjustStock(tenant, product.id, bin.id, 40);
    const hold = (body: Record<string, unknown>) =>
      call("POST", "/inventory/holds", {
        headers: tenant.admin,
        body: { productId: product.id, expiresAt: inAnHour(), ...body },
      });
    const made = await hold({ packaging: "case", packs: 3 });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body.data.quantity).toBe(36);
    const short = await hold({ packaging: "case", packs: 1 });
    expect(short.status).toBe(409);
    expect(short.body.errors).toEqual(["quantity: Insufficient stock: requested 12, available 4"]);
    const unknown = await hold({ packaging: "pallet", packs: 1 });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors).toEqual([`packaging: product ${product.sku} has no packaging pallet`]);
    const both = await hold({ quantity: 1, packaging: "case", packs: 1 });
    expect(both.status).toBe(400);
    expect(both.body.errors).toEqual(["quantity: give quantity or packaging and packs, not both"]);
    const stock = await call("GET", `/inventory/stock?productId=${product.id}`, { headers: tenant.admin });
    expect(stock.body.data.items[0]).toMatchObject({ onHand: 40, reserved: 36 });
  });
});

describe("counts in packs", () => {
  it("record counted packs as units; an unknown packaging stores nothing", async () => {
    const product = await packed();
    await adjustStock(tenant, product.id, bin.id, 30);
    const count = await call("POST", "/inventory/counts", {
      headers: tenant.admin,
      body: { warehouseId, productIds: [product.id] },
    });
    expect(count.status, JSON.stringify(count.body)).toBe(201);
    const record = (line: Record<string, unknown>) =>
      call("PUT", `/inventory/counts/${count.body.data.id}/lines`, {
        headers: tenant.admin,
        body: { lines: [{ productId: product.id, locationId: bin.id, ...line }] },
      });
    const unknown = await record({ packaging: "crate", packs: 2 });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors).toEqual([
      `lines[0].packaging: product ${product.sku} has no packaging crate`,
    ]);
    const neither = await record({});
    expect(neither.status).toBe(400);
    expect(neither.body.errors).toEqual(["lines[0].counted: is required (or packaging and packs)"]);
    const both = await record({ counted: 24, packaging: "case", packs: 2 });
    expect(both.body.errors).toEqual(["lines[0].counted: give counted or packaging and packs, not both"]);
    const recorded = await record({ packaging: "case", packs: 2 });
    expect(recorded.status, JSON.stringify(recorded.body)).toBe(200);
    expect(recorded.body.data.lines).toMatchObject([
      { productId: product.id, locationId: bin.id, counted: 24, variance: -6 },
    ]);
    expect(await onHandAt(product.id, bin.id)).toBe(30);
  });
});

describe("set levels in packs", () => {
  it("set on hand to packs x size, single and in a batch, with compare-and-swap in units", async () => {
    const product = await packed();
    await adjustStock(tenant, product.id, bin.id, 5);
    const set = await call("PUT", "/inventory/levels", {
      headers: tenant.admin,
      body: { productId: product.id, locationId: bin.id, packaging: "case", packs: 2, expectedOnHand: 5 },
    });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body.data.movement).toMatchObject({ delta: 19, onHandAfter: 24, reason: "set" });
    const zero = await call("PUT", "/inventory/levels", {
      headers: tenant.admin,
      body: { sku: product.sku, locationId: bin.id, packaging: "case", packs: 0 },
    });
    expect(zero.body.data.stockLevel).toMatchObject({ onHand: 0 });

    const other = await packed();
    const batch = await call("POST", "/inventory/levels/batch", {
      headers: tenant.admin,
      body: {
        atomic: false,
        levels: [
          { productId: product.id, locationId: bin.id, packaging: "case", packs: 1 },
          { productId: other.id, locationId: bin.id, packaging: "pallet", packs: 1 },
          { productId: other.id, locationCode: bin.code, onHand: 7, packaging: "case", packs: 1 },
        ],
      },
    });
    expect(batch.status).toBe(400);
    expect(batch.body.errors).toEqual(["levels[2].onHand: give onHand or packaging and packs, not both"]);
    const perLine = await call("POST", "/inventory/levels/batch", {
      headers: tenant.admin,
      body: {
        atomic: false,
        levels: [
          { productId: product.id, locationId: bin.id, packaging: "case", packs: 1 },
          { productId: other.id, locationId: bin.id, packaging: "pallet", packs: 1 },
        ],
      },
    });
    expect(perLine.status, JSON.stringify(perLine.body)).toBe(200);
    expect(perLine.body.data.results).toMatchObject([
      { status: 201 },
      { status: 400, errors: [`packaging: product ${other.sku} has no packaging pallet`] },
    ]);
    expect(await onHandAt(product.id, bin.id)).toBe(12);
    expect(await onHandAt(other.id, bin.id)).toBeUndefined();
  });
});

describe("shipments and returns in packs", () => {
  it("ship, return and receive packs x size units; packs of an unknown packaging name the field", async () => {
    const product = await packed();
    await adjustStock(tenant, product.id, bin.id, 60);
    const order = await salesOrder(tenant, [{ productId: product.id, quantity: 48 }], { warehouseId });
    expect(order.status).toBe(201);
    await setStatus(tenant, order.body.data.id, { status: "confirmed" });
    const orderLineId = order.body.data.lines[0]?.id as string;
    const ship = (line: Record<string, unknown>) =>
      call("POST", `/orders/${order.body.data.id}/shipments`, {
        headers: tenant.admin,
        body: { packages: [{ weight: { value: 1, unit: "kg" }, lines: [{ orderLineId, ...line }] }] },
      });
    const unknown = await ship({ packaging: "crate", packs: 1 });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors).toEqual([
      `packages[0].lines[0].packaging: product ${product.sku} has no packaging crate`,
    ]);
    const shipped = await ship({ packaging: "case", packs: 3 });
    expect(shipped.status, JSON.stringify(shipped.body)).toBe(201);
    expect(shipped.body.data.packages[0]?.lines).toMatchObject([{ orderLineId, quantity: 36 }]);
    const dispatched = await call("POST", `/shipments/${shipped.body.data.id}/dispatch`, {
      headers: tenant.admin,
    });
    expect(dispatched.status, JSON.stringify(dispatched.body)).toBe(200);

    const rma = await call("POST", "/returns", {
      headers: tenant.admin,
      body: {
        orderId: order.body.data.id,
        lines: [{ orderLineId, packaging: "case", packs: 2, reason: "damaged" }],
      },
    });
    expect(rma.status, JSON.stringify(rma.body)).toBe(201);
    expect(rma.body.data.lines).toMatchObject([{ orderLineId, quantity: 24 }]);
    const tooMany = await call("POST", "/returns", {
      headers: tenant.admin,
      body: {
        orderId: order.body.data.id,
        lines: [{ orderLineId, packaging: "case", packs: 2, reason: "r" }],
      },
    });
    expect(tooMany.status).toBe(409);
    expect(tooMany.body.errors).toEqual([
      `lines[0].quantity: order line ${orderLineId} shipped 36, earlier returns claim 24, returning 24`,
    ]);
    const id = rma.body.data.id;
    await call("PATCH", `/returns/${id}/status`, { headers: tenant.admin, body: { status: "authorized" } });
    const receive = (line: Record<string, unknown>) =>
      call("POST", `/returns/${id}/receipts`, {
        headers: tenant.admin,
        body: {
          lines: [
            { returnLineId: rma.body.data.lines[0]?.id, disposition: "restock", locationId: bin.id, ...line },
          ],
        },
      });
    const half = await receive({ quantity: 12, packaging: "case", packs: 1 });
    expect(half.status).toBe(400);
    expect(half.body.errors).toEqual(["lines[0].quantity: give quantity or packaging and packs, not both"]);
    const received = await receive({ packaging: "case", packs: 2 });
    expect(received.status, JSON.stringify(received.body)).toBe(200);
    expect(received.body.data).toMatchObject({ status: "received", lines: [{ receivedQuantity: 24 }] });
    // 60 - 36 shipped + 24 back.
    expect(await onHandAt(product.id, bin.id)).toBe(48);
  });
});
