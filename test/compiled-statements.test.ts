import { beforeAll, describe, expect, it } from "vitest";
import { levelsIn } from "./support/api-types";
import {
  adjustStock,
  createLocation,
  createProduct,
  createTenant,
  createWarehouse,
  salesOrder,
  type TestTenant,
  unique,
} from "./support/builders";
import { call } from "./support/http";

// The write path's statements are compiled once per isolate and bound per request (src/db/compiled.ts): a
// template compiled for one request must never serve another whose SQL differs. The requests below run in one
// isolate, in an order that compiles each template for one kind of handle before another kind reuses it: a
// whole tenant's before a merchant's (which must still see its merchant's rows only), a merchant's before a
// whole tenant's (which must still see every row), and one tenant's before another's.

let tenant: TestTenant;
let other: TestTenant;
let asA: Record<string, string>;
let bin: string;
let spare: string;
/** Merchant A's product and merchant B's. */
let own: string;
let foreign: string;

/** The product's on hand at `locationId` (0 without a level), as the tenant's admin sees it. */
async function onHand(who: TestTenant, productId: string, locationId: string) {
  const res = await call("GET", `/inventory/stock?productId=${productId}&pageSize=100`, {
    headers: who.admin,
  });
  expect(res.status).toBe(200);
  return levelsIn(res.body.data).find((l) => l.locationId === locationId)?.onHand ?? 0;
}

const adjust = (headers: Record<string, string>, productId: string, locationId: string, quantity: number) =>
  call("POST", "/inventory/adjustments", {
    headers,
    body: { productId, locationId, quantity, reason: "count" },
  });

const transfer = (headers: Record<string, string>, productId: string, from: string, to: string) =>
  call("POST", "/inventory/transfers", {
    headers,
    body: { productId, fromLocationId: from, toLocationId: to, quantity: 1 },
  });

beforeAll(async () => {
  tenant = await createTenant();
  other = await createTenant();
  const merchant = async (code: string) =>
    (await call("POST", "/merchants", { headers: tenant.admin, body: { code, name: code } })).body.data
      .id as string;
  const [a, b] = [await merchant(`A-${unique()}`), await merchant(`B-${unique()}`)];
  const key = await call("POST", "/api-keys", {
    headers: tenant.admin,
    body: {
      name: "merchant A",
      scopes: ["read:inventory", "write:inventory", "read:orders", "write:orders"],
      merchantId: a,
    },
  });
  asA = { "x-api-key": key.body.data.key };
  const warehouse = await createWarehouse(tenant);
  bin = (await createLocation(tenant, warehouse.id)).id;
  spare = (await createLocation(tenant, warehouse.id)).id;
  own = (await createProduct(tenant, { merchantId: a })).id;
  foreign = (await createProduct(tenant, { merchantId: b })).id;
});

describe("statements compiled once per isolate", () => {
  it("serve a merchant's request after the whole tenant's with the merchant's filter", async () => {
    // The tenant's admin compiles the adjustment's and the transfer's statements first.
    expect((await adjust(tenant.admin, foreign, bin, 10)).status).toBe(201);
    expect((await adjust(tenant.admin, foreign, bin, -1)).status).toBe(201);
    expect((await transfer(tenant.admin, foreign, bin, spare)).status).toBe(201);
    // Merchant A's key runs the same statements on B's product: each is B's, so none exists for A.
    expect((await adjust(asA, foreign, bin, 5)).status).toBe(404);
    expect((await adjust(asA, foreign, bin, -5)).status).toBe(404);
    expect((await transfer(asA, foreign, bin, spare)).status).toBe(404);
    expect(await onHand(tenant, foreign, bin)).toBe(8);
    expect(await onHand(tenant, foreign, spare)).toBe(1);
    // And on its own product they write as they should.
    const added = await adjust(asA, own, bin, 4);
    expect(added.status).toBe(201);
    expect(added.body.data.stockLevel).toMatchObject({ productId: own, locationId: bin, onHand: 4 });
  });

  it("serve the whole tenant's request after a merchant's without the merchant's filter", async () => {
    // A's key compiles a removal from a level that exists only for a new product, then the tenant's admin
    // removes from B's product (neither A's nor filtered by merchant).
    const product = (await createProduct(tenant, {})).id;
    await adjustStock(tenant, product, spare, 3);
    expect((await adjust(asA, own, bin, -1)).status).toBe(201);
    const taken = await adjust(tenant.admin, product, spare, -2);
    expect(taken.status).toBe(201);
    expect(taken.body.data.stockLevel).toMatchObject({ productId: product, onHand: 1 });
    expect(taken.body.data.movement).toMatchObject({ productId: product, delta: -2, onHandAfter: 1 });
    expect(await onHand(tenant, own, bin)).toBe(3);
  });

  it("bind each request's tenant: another tenant's ids are 404 and its own rows are its own", async () => {
    const warehouse = await createWarehouse(other);
    const theirs = (await createLocation(other, warehouse.id)).id;
    const product = (await createProduct(other, {})).id;
    // The statements are compiled already (by the tests above); the other tenant binds its own tenant.
    expect((await adjust(other.admin, product, theirs, 7)).status).toBe(201);
    expect((await adjust(other.admin, foreign, bin, 7)).status).toBe(404);
    expect((await adjust(other.admin, foreign, bin, -7)).status).toBe(404);
    expect((await transfer(other.admin, foreign, bin, spare)).status).toBe(404);
    expect((await adjust(tenant.admin, product, theirs, 7)).status).toBe(404);
    expect((await transfer(tenant.admin, product, theirs, bin)).status).toBe(404);
    expect(await onHand(other, product, theirs)).toBe(7);
    expect(await onHand(tenant, foreign, bin)).toBe(8);
  });

  it("create a merchant's order and the whole tenant's, each numbered and each merchant's own", async () => {
    const product = (await createProduct(tenant, {})).id;
    await adjustStock(tenant, product, bin, 5);
    // A's key compiles the order's statements first; then the tenant's admin orders its own goods.
    const mine = await salesOrder(tenant, [{ productId: own, quantity: 1 }], {}, asA);
    expect(mine.status).toBe(201);
    expect(mine.body.data).toMatchObject({ merchantId: expect.any(String), status: "pending" });
    const theirs = await salesOrder(tenant, [{ productId: product, quantity: 2 }]);
    expect(theirs.status).toBe(201);
    expect(theirs.body.data.merchantId).toBeNull();
    expect(theirs.body.data.number).toMatch(/^SO-\d{6}$/);
    expect(theirs.body.data.number).not.toBe(mine.body.data.number);
    // A's key on B's goods, and another tenant on this tenant's goods, find no product.
    expect((await salesOrder(tenant, [{ productId: foreign, quantity: 1 }], {}, asA)).status).toBe(404);
    expect((await salesOrder(other, [{ productId: product, quantity: 1 }])).status).toBe(404);
    expect(await onHand(tenant, product, bin)).toBe(5);
    const reserved = await call("GET", `/inventory/stock?productId=${product}`, { headers: tenant.admin });
    expect(levelsIn(reserved.body.data)[0]).toMatchObject({ onHand: 5, reserved: 2 });
  });
});
