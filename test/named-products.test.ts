import { beforeAll, describe, expect, it } from "vitest";
import {
  adjustStock,
  createLocation,
  createMerchant,
  createProduct,
  createTenant,
  createWarehouse,
  purchaseOrder,
  salesOrder,
  scopedKey,
  type TestTenant,
} from "./support/builders";
import { call } from "./support/http";

// Records that name products by id also give each product's SKU and name (issue #45, every page under 300 ms): a
// page shows them from its one read instead of reading the products in a second step.

let tenant: TestTenant;
let other: TestTenant;
let warehouseId: string;
let binId: string;
beforeAll(async () => {
  [tenant, other] = await Promise.all([createTenant(), createTenant()]);
  warehouseId = (await createWarehouse(tenant)).id;
  binId = (await createLocation(tenant, warehouseId)).id;
});

const named = (p: { id: string; sku: string; name: string }) => ({
  productId: p.id,
  sku: p.sku,
  productName: p.name,
});

describe("GET /orders/{id}: each line's and kit line's product by SKU and name", () => {
  it("names a sales order's products, a kit's and its components'", async () => {
    const single = await createProduct(tenant, { name: "Desk lamp" });
    const parts = [
      await createProduct(tenant, { name: "Shade" }),
      await createProduct(tenant, { name: "Bulb" }),
    ];
    for (const product of [single, ...parts]) await adjustStock(tenant, product.id, binId, 10);
    const kit = await createProduct(tenant, {
      name: "Lamp kit",
      type: "kit",
      components: parts.map((part) => ({ productId: part.id, quantity: 1 })),
    });
    const created = await salesOrder(tenant, [
      { productId: single.id, quantity: 1 },
      { productId: kit.id, quantity: 2, price: 30 },
    ]);
    expect(created.status).toBe(201);
    const res = await call("GET", `/orders/${created.body.data.id}`, { headers: tenant.admin });
    expect(res.status).toBe(200);
    expect(
      res.body.data.lines.map((l) => ({ productId: l.productId, sku: l.sku, productName: l.productName })),
    ).toEqual([single, ...parts].map(named));
    expect(
      res.body.data.kitLines.map((k) => ({ productId: k.productId, sku: k.sku, productName: k.productName })),
    ).toEqual([named(kit)]);
  });

  it("names a purchase order's products", async () => {
    const product = await createProduct(tenant, { name: "Pallet wrap" });
    const created = await purchaseOrder(tenant, warehouseId, [{ productId: product.id, quantity: 4 }]);
    expect(created.status).toBe(201);
    const res = await call("GET", `/orders/${created.body.data.id}`, { headers: tenant.admin });
    expect(res.body.data.lines).toMatchObject([named(product)]);
  });

  it("keeps to the tenant and the merchant: 404 for another's order, 401 and 403 without the right, 400 not an id", async () => {
    const acme = await createMerchant(tenant);
    const acmeProduct = await createProduct(tenant, { merchantId: acme, name: "Acme boots" });
    await adjustStock(tenant, acmeProduct.id, binId, 5);
    const ownProduct = await createProduct(tenant);
    await adjustStock(tenant, ownProduct.id, binId, 5);
    const acmeOrder = (await salesOrder(tenant, [{ productId: acmeProduct.id, quantity: 1 }])).body.data.id;
    const ownOrder = (await salesOrder(tenant, [{ productId: ownProduct.id, quantity: 1 }])).body.data.id;
    const key = await call("POST", "/api-keys", {
      headers: tenant.admin,
      body: { name: "Acme's key", scopes: ["read:orders"], merchantId: acme },
    });
    const acmeKey = { "x-api-key": key.body.data.key as string };
    const mine = await call("GET", `/orders/${acmeOrder}`, { headers: acmeKey });
    expect(mine.status).toBe(200);
    expect(mine.body.data.lines).toMatchObject([named(acmeProduct)]);
    expect((await call("GET", `/orders/${ownOrder}`, { headers: acmeKey })).status).toBe(404);
    expect((await call("GET", `/orders/${acmeOrder}`, { headers: other.admin })).status).toBe(404);
    expect((await call("GET", `/orders/${acmeOrder}`)).status).toBe(401);
    const stockReader = await scopedKey(tenant, ["read:inventory"]);
    expect((await call("GET", `/orders/${acmeOrder}`, { headers: stockReader })).status).toBe(403);
    expect((await call("GET", "/orders/not-an-id", { headers: tenant.admin })).status).toBe(400);
  });
});
