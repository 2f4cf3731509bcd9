import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { packsOf, unitsOf } from "../src/stock/packs";
import {
  adjustStock,
  createLocation,
  createProduct,
  createTenant,
  createWarehouse,
  scopedKey,
  setStatus,
  type TestTenant,
  unique,
} from "./support/builders";
import { checkedStockOf, outboxEvents } from "./support/database";
import { call } from "./support/http";

// Pack sizes: a product's packagings, a quantity given as packs wherever stock is moved, a packaging's barcode
// in a scan and in GET /barcodes, and stock shown in packs. Stock, ledger and events stay in base units.

let tenant: TestTenant;
let warehouseId: string;
let bin: string;
beforeAll(async () => {
  tenant = await createTenant();
  warehouseId = (await createWarehouse(tenant)).id;
  bin = (await createLocation(tenant, warehouseId)).id;
});

/** A random 13-digit GTIN with a right check digit, unique in this run. */
function gtin13(): string {
  const body = `2${String(Math.floor(Math.random() * 1e11)).padStart(11, "0")}`;
  const sum = [...body].reduce((s, d, i) => s + Number(d) * (i % 2 === 0 ? 1 : 3), 0);
  return `${body}${(10 - (sum % 10)) % 10}`;
}

const packed = (overrides: Record<string, unknown> = {}) =>
  createProduct(tenant, {
    packagings: [
      { code: "case", name: "Case of 12", quantity: 12, barcode: gtin13() },
      { code: "pallet", name: "Pallet", quantity: 480 },
    ],
    ...overrides,
  });

describe("conversions", () => {
  it("packs to units and back are exact for any size and count", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 1_000_000 }),
        fc.integer({ min: 0, max: 1000 }),
        (size, packs) => {
          const units = unitsOf(packs, size);
          expect(packsOf(units, size)).toEqual({ packs, remainder: 0 });
        },
      ),
    );
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 1_000_000 }), fc.nat(1_000_000_000), (size, units) => {
        const { packs, remainder } = packsOf(units, size);
        expect(remainder).toBeGreaterThanOrEqual(0);
        expect(remainder).toBeLessThan(size);
        expect(unitsOf(packs, size) + remainder).toBe(units);
      }),
    );
  });
});

describe("a product's packagings", () => {
  it("are created, shown, replaced and kept by a write that does not send them", async () => {
    const product = await packed();
    expect(product.type).toBe("stocked");
    expect(product.packagings.map((p) => [p.code, p.quantity])).toEqual([
      ["case", 12],
      ["pallet", 480],
    ]);
    const renamed = await call("PATCH", `/products/${product.id}`, {
      headers: tenant.admin,
      body: { name: "Renamed" },
    });
    expect(renamed.body.data?.packagings).toHaveLength(2);
    const replaced = await call("PATCH", `/products/${product.id}`, {
      headers: tenant.admin,
      body: { packagings: [{ code: "box", name: "Box", quantity: 6 }] },
    });
    expect(replaced.status).toBe(200);
    expect(replaced.body.data?.packagings).toEqual([
      { code: "box", name: "Box", quantity: 6, barcode: null },
    ]);
    const read = await call("GET", `/products/${product.id}`, { headers: tenant.admin });
    expect(read.body.data?.packagings).toEqual(replaced.body.data?.packagings);
    // The product and its parts are one statement: a read by a credential already seen is one round trip.
    expect(read.headers.get("X-D1-Stats")).toContain("hops=1");
    const events = await outboxEvents(tenant, /^product\.updated$/);
    const last = events.filter((e) => (e.payload as { id: string }).id === product.id).at(-1);
    expect(last?.payload).toMatchObject({ packagings: replaced.body.data?.packagings });
  });

  it("refuse a barcode another product or packaging holds, either way round (409), and repeats (400)", async () => {
    const product = await packed();
    const caseBarcode = product.packagings[0]?.barcode as string;
    const other = await call("POST", "/products", {
      headers: tenant.admin,
      body: { sku: `SKU-${unique()}`, name: "Other", barcode: caseBarcode },
    });
    expect(other.status).toBe(409);
    const plain = await createProduct(tenant, { barcode: gtin13() });
    const clash = await call("PATCH", `/products/${product.id}`, {
      headers: tenant.admin,
      body: { packagings: [{ code: "case", name: "Case", quantity: 12, barcode: plain.barcode }] },
    });
    expect(clash.status).toBe(409);
    const taken = await call("POST", "/products", {
      headers: tenant.admin,
      body: {
        sku: `SKU-${unique()}`,
        name: "Third",
        packagings: [{ code: "case", name: "Case", quantity: 6, barcode: caseBarcode }],
      },
    });
    expect(taken.status).toBe(409);
    const batch = await call("POST", "/products/batch", {
      headers: tenant.admin,
      body: { products: [{ sku: `SKU-${unique()}`, name: "Batch", barcode: caseBarcode }] },
    });
    expect(batch.body.data?.results[0]?.status).toBe(409);
    const twice = await call("POST", "/products", {
      headers: tenant.admin,
      body: {
        sku: `SKU-${unique()}`,
        name: "Twice",
        packagings: [
          { code: "case", name: "Case", quantity: 6 },
          { code: "case", name: "Case again", quantity: 8 },
        ],
      },
    });
    expect(twice.status).toBe(400);
    expect(twice.body.errors).toContain("packagings[1].code: case is named twice");
    // Nothing of the refused writes was stored.
    const read = await call("GET", `/products/${product.id}`, { headers: tenant.admin });
    expect(read.body.data?.packagings[0]?.barcode).toBe(caseBarcode);
  });

  it("resolve by barcode to their product and size", async () => {
    const product = await packed();
    const code = product.packagings[0]?.barcode as string;
    const res = await call("GET", `/barcodes/${code}`, { headers: tenant.admin });
    expect(res.status).toBe(200);
    expect(res.body.data?.matches).toEqual([
      {
        type: "packaging",
        product: { id: product.id, sku: product.sku, name: product.name, barcode: null, merchantId: null },
        packaging: { code: "case", name: "Case of 12", quantity: 12, barcode: code },
      },
    ]);
  });
});

describe("a quantity in packs", () => {
  it("adjusts, transfers and batch-adjusts in base units; the ledger and events show units", async () => {
    const product = await packed();
    const other = (await createLocation(tenant, warehouseId)).id;
    const added = await call("POST", "/inventory/adjustments", {
      headers: tenant.admin,
      body: { productId: product.id, locationId: bin, packaging: "case", packs: 3, reason: "received" },
    });
    expect(added.status).toBe(201);
    expect(added.body.data?.movement.delta).toBe(36);
    const moved = await call("POST", "/inventory/transfers", {
      headers: tenant.admin,
      body: { productId: product.id, fromLocationId: bin, toLocationId: other, packaging: "case", packs: 1 },
    });
    expect(moved.status).toBe(201);
    expect(moved.body.data?.to.onHand).toBe(12);
    const batch = await call("POST", "/inventory/adjustments/batch", {
      headers: tenant.admin,
      body: {
        lines: [
          { productId: product.id, locationId: bin, packaging: "case", packs: -1, reason: "damaged" },
          { productId: product.id, locationId: other, packaging: "crate", packs: 1, reason: "found" },
        ],
        atomic: false,
      },
    });
    expect(batch.status).toBe(200);
    expect(batch.body.data?.results[0]?.status).toBe(201);
    expect(batch.body.data?.results[1]).toMatchObject({
      status: 400,
      errors: [expect.stringContaining(`has no packaging crate`)],
    });
    const levels = await checkedStockOf(tenant, product.id);
    expect(levels.map((l) => l.onHand).sort((a, b) => a - b)).toEqual([12, 12]);
    const deltas = (await outboxEvents(tenant, /^inventory\.adjusted$/))
      .map((e) => e.payload as { productId: string; delta?: number; quantity?: number })
      .filter((p) => p.productId === product.id);
    expect(deltas.length).toBeGreaterThan(0);
    expect(JSON.stringify(deltas)).not.toContain('"packs"');
  });

  it("orders and receives in packs", async () => {
    const product = await packed();
    const order = await call("POST", "/orders/purchase", {
      headers: tenant.admin,
      body: {
        supplier: "Acme",
        warehouseId,
        lines: [{ productId: product.id, packaging: "pallet", packs: 1, cost: 1 }],
      },
    });
    expect(order.status).toBe(201);
    expect(order.body.data?.lines[0]?.quantity).toBe(480);
    await setStatus(tenant, order.body.data?.id as string, { status: "ordered" });
    const lineId = order.body.data?.lines[0]?.id as string;
    const receipt = await call("POST", `/orders/${order.body.data?.id}/receive`, {
      headers: tenant.admin,
      body: { lines: [{ lineId, packaging: "case", packs: 2, locationId: bin }] },
    });
    expect(receipt.status).toBe(200);
    expect(receipt.body.data?.lines[0]?.receivedQuantity).toBe(24);
    const packedSale = await call("POST", "/orders/sales", {
      headers: tenant.admin,
      body: {
        customerId: crypto.randomUUID(),
        shippingAddress: { street: "1 Main St", city: "Springfield", zip: "12345" },
        lines: [{ productId: product.id, packaging: "case", packs: 1, price: 10 }],
      },
    });
    expect(packedSale.status).toBe(201);
    expect(packedSale.body.data?.lines[0]?.quantity).toBe(12);
  });

  it("refuses quantity with packs, half a pair, an unknown packaging and too many units (400), storing nothing", async () => {
    const product = await packed();
    const body = (extra: Record<string, unknown>) => ({
      productId: product.id,
      locationId: bin,
      reason: "received",
      ...extra,
    });
    const cases: [Record<string, unknown>, string][] = [
      [
        { quantity: 12, packaging: "case", packs: 1 },
        "quantity: give quantity or packaging and packs, not both",
      ],
      [{ packaging: "case" }, "packs: is required with packaging"],
      [{ packs: 2 }, "packaging: is required with packs"],
      [{}, "quantity: is required (or packaging and packs)"],
      [{ packaging: "crate", packs: 1 }, `packaging: product ${product.sku} has no packaging crate`],
      [
        { packaging: "pallet", packs: 3_000_000 },
        "packs: 3000000 x pallet (480) is 1440000000 units, more than 1000000000",
      ],
    ];
    for (const [extra, message] of cases) {
      const res = await call("POST", "/inventory/adjustments", { headers: tenant.admin, body: body(extra) });
      expect(res.status, JSON.stringify(extra)).toBe(400);
      expect(res.body.errors).toContain(message);
    }
    expect(await checkedStockOf(tenant, product.id)).toEqual([]);
  });
});

describe("a pick in packs", () => {
  it("counts one pack for a scanned packaging barcode, packs when sent, and needs a quantity otherwise", async () => {
    const product = await packed();
    const place = (await createWarehouse(tenant)).id;
    const shelf = await createLocation(tenant, place);
    await adjustStock(tenant, product.id, shelf.id, 60);
    const order = await call("POST", "/orders/sales", {
      headers: tenant.admin,
      body: {
        customerId: crypto.randomUUID(),
        warehouseId: place,
        shippingAddress: { street: "1 Main St", city: "Springfield", zip: "12345" },
        lines: [{ productId: product.id, packaging: "case", packs: 4, price: 1 }],
      },
    });
    expect(order.status).toBe(201);
    await setStatus(tenant, order.body.data?.id as string, { status: "confirmed" });
    const list = await call("POST", "/pick-lists", {
      headers: tenant.admin,
      body: { warehouseId: place, orderIds: [order.body.data?.id] },
    });
    const listId = list.body.data?.id as string;
    const pick = (body: Record<string, unknown>) =>
      call("POST", `/pick-lists/${listId}/picks`, {
        headers: tenant.admin,
        body: { location: shelf.code, ...body },
      });
    const caseBarcode = product.packagings[0]?.barcode as string;
    const scanned = await pick({ product: caseBarcode });
    expect(scanned.status).toBe(200);
    expect(scanned.body.data?.lines[0]?.pickedQuantity).toBe(12);
    const packs = await pick({ product: product.sku, packaging: "case", packs: 2 });
    expect(packs.body.data?.lines[0]?.pickedQuantity).toBe(36);
    const bare = await pick({ product: product.sku });
    expect(bare.status).toBe(400);
    expect(bare.body.errors).toEqual([
      "quantity: is required (or packaging and packs, or a packaging's barcode as product)",
    ]);
    const units = await pick({ product: caseBarcode, quantity: 5 });
    expect(units.body.data?.lines[0]?.pickedQuantity).toBe(41);
    const tooMany = await pick({ product: caseBarcode });
    expect(tooMany.status).toBe(409);
    expect(tooMany.body.data).toBeNull();
  });
});

describe("stock in packs", () => {
  it("shows whole packs and the remainder; products without the packaging show null", async () => {
    const product = await packed();
    const plain = await createProduct(tenant);
    const place = (await createLocation(tenant, warehouseId)).id;
    await adjustStock(tenant, product.id, place, 41);
    await adjustStock(tenant, plain.id, place, 5);
    const res = await call("GET", `/inventory/stock?locationId=${place}&packaging=case`, {
      headers: tenant.admin,
    });
    expect(res.status).toBe(200);
    const byProduct = new Map(res.body.data?.items.map((l) => [l.productId, l]));
    expect((byProduct.get(product.id) as { packs: unknown }).packs).toEqual({
      packaging: "case",
      size: 12,
      onHand: { packs: 3, remainder: 5 },
      reserved: { packs: 0, remainder: 0 },
      available: { packs: 3, remainder: 5 },
    });
    expect((byProduct.get(plain.id) as { packs: unknown }).packs).toBeNull();
    const asOf = await call("GET", `/inventory/stock?packaging=case&asOf=${new Date().toISOString()}`, {
      headers: tenant.admin,
    });
    expect(asOf.status).toBe(400);
  });
});

describe("access", () => {
  it("needs a credential (401), write:products to set packagings (403), and keeps tenants apart (404)", async () => {
    const product = await packed();
    const none = await call("PATCH", `/products/${product.id}`, { body: { packagings: [] } });
    expect(none.status).toBe(401);
    const reader = await scopedKey(tenant, ["read:products"]);
    const refused = await call("PATCH", `/products/${product.id}`, {
      headers: reader,
      body: { packagings: [] },
    });
    expect(refused.status).toBe(403);
    const stranger = await createTenant();
    const elsewhere = await call("PATCH", `/products/${product.id}`, {
      headers: stranger.admin,
      body: { packagings: [] },
    });
    expect(elsewhere.status).toBe(404);
    const code = product.packagings[0]?.barcode as string;
    expect((await call("GET", `/barcodes/${code}`, { headers: stranger.admin })).status).toBe(404);
    const read = await call("GET", `/products/${product.id}`, { headers: tenant.admin });
    expect(read.body.data?.packagings).toHaveLength(2);
  });
});
