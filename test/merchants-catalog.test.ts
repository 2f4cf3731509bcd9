import { beforeAll, describe, expect, it } from "vitest";
import {
  adjustStock,
  createProduct,
  createTenant,
  purchaseOrder,
  salesOrder,
  scopedKey,
  stockedProduct,
  type TestTenant,
  unique,
} from "./support/builders";
import { call } from "./support/http";

let tenant: TestTenant;
let other: TestTenant;
beforeAll(async () => {
  [tenant, other] = await Promise.all([createTenant(), createTenant()]);
});

async function newMerchant(who: TestTenant = tenant) {
  const res = await call("POST", "/merchants", {
    headers: who.admin,
    body: { code: `M-${unique()}`, name: "Acme Outdoor" },
  });
  expect(res.status).toBe(201);
  return res.body.data;
}

/** POST /products of a kit of `merchantId` (none: the tenant's own) with one of each of `parts`. */
const kitOf = (merchantId: string | undefined, ...parts: { id: string }[]) =>
  call("POST", "/products", {
    headers: tenant.admin,
    body: {
      sku: `KIT-${unique()}`,
      name: "Kit",
      type: "kit",
      ...(merchantId ? { merchantId } : {}),
      components: parts.map((p) => ({ productId: p.id, quantity: 1 })),
    },
  });

describe("merchants", () => {
  it("are created, listed, read and replaced, with codes unique per tenant", async () => {
    const code = `ACME-${unique()}`;
    const res = await call("POST", "/merchants", { headers: tenant.admin, body: { code, name: "Acme" } });
    expect(res.status).toBe(201);
    expect(res.headers.get("location")).toBe(`/api/v1/merchants/${res.body.data.id}`);
    expect(res.body.data).toMatchObject({ code, name: "Acme" });
    const dup = await call("POST", "/merchants", { headers: tenant.admin, body: { code, name: "x" } });
    expect(dup.status).toBe(409);
    // Another tenant may use the same code.
    expect(
      (await call("POST", "/merchants", { headers: other.admin, body: { code, name: "x" } })).status,
    ).toBe(201);
    const put = await call("PUT", `/merchants/${res.body.data.id}`, {
      headers: tenant.admin,
      body: { code, name: "Acme Outdoor" },
    });
    expect(put.body.data).toMatchObject({ id: res.body.data.id, name: "Acme Outdoor" });
    const got = await call("GET", `/merchants/${res.body.data.id}`, { headers: tenant.admin });
    expect(got.body.data.name).toBe("Acme Outdoor");
    const list = await call("GET", `/merchants?search=${code.toLowerCase()}`, { headers: tenant.admin });
    expect(list.body.data.items.map((m: { id: string }) => m.id)).toEqual([res.body.data.id]);
    const blank = await call("POST", "/merchants", { headers: tenant.admin, body: { name: "x" } });
    expect(blank.status).toBe(400);
    expect(blank.body.errors).toEqual(["code: Code is required"]);
  });

  it("answer 401 without a credential, 403 without the scope and 404 for another tenant's merchant", async () => {
    const merchant = await newMerchant();
    expect((await call("GET", "/merchants")).status).toBe(401);
    expect((await call("POST", "/merchants", { body: { code: "X", name: "x" } })).status).toBe(401);
    const inventoryOnly = await scopedKey(tenant, ["read:inventory"]);
    expect((await call("GET", "/merchants", { headers: inventoryOnly })).status).toBe(403);
    const catalogWriter = await scopedKey(tenant, ["write:products"]);
    expect((await call("GET", `/merchants/${merchant.id}`, { headers: catalogWriter })).status).toBe(200);
    const post = await call("POST", "/merchants", { headers: catalogWriter, body: { code: "X", name: "x" } });
    expect(post.status).toBe(403);
    expect((await call("DELETE", `/merchants/${merchant.id}`, { headers: catalogWriter })).status).toBe(403);
    for (const [method, body] of [
      ["GET", undefined],
      ["PUT", { code: "X", name: "x" }],
      ["DELETE", undefined],
    ] as const) {
      const res = await call(method, `/merchants/${merchant.id}`, { headers: other.admin, body });
      expect(res.status, method).toBe(404);
    }
    const list = await call("GET", "/merchants?pageSize=100", { headers: other.admin });
    expect(list.body.data.items.map((m: { id: string }) => m.id)).not.toContain(merchant.id);
  });

  it("cannot be deleted while they have products or open orders", async () => {
    const merchant = await newMerchant();
    const { productId, locationId, warehouseId } = await stockedProduct(tenant, 2, {
      product: { merchantId: merchant.id },
    });
    expect((await call("DELETE", `/merchants/${merchant.id}`, { headers: tenant.admin })).status).toBe(409);
    const order = await purchaseOrder(tenant, warehouseId, [{ productId, quantity: 1 }]);
    expect(order.status).toBe(201);
    await adjustStock(tenant, productId, locationId, -2);
    // The open purchase order keeps both the product and the merchant.
    expect((await call("DELETE", `/products/${productId}`, { headers: tenant.admin })).status).toBe(409);
    expect((await call("DELETE", `/merchants/${merchant.id}`, { headers: tenant.admin })).status).toBe(409);
    const cancelled = await call("PATCH", `/orders/${order.body.data.id}/status`, {
      headers: tenant.admin,
      body: { status: "cancelled" },
    });
    expect(cancelled.status).toBe(200);
    expect((await call("DELETE", `/products/${productId}`, { headers: tenant.admin })).status).toBe(200);
    const deleted = await call("DELETE", `/merchants/${merchant.id}`, { headers: tenant.admin });
    expect(deleted.status).toBe(200);
    expect(deleted.body.data.id).toBe(merchant.id);
    expect((await call("GET", `/merchants/${merchant.id}`, { headers: tenant.admin })).status).toBe(404);
  });
});

describe("a product's merchant", () => {
  it("is set on create, read back, filtered on, and must be the tenant's own merchant", async () => {
    const merchant = await newMerchant();
    const product = await createProduct(tenant, { merchantId: merchant.id });
    expect(product.merchantId).toBe(merchant.id);
    expect((await createProduct(tenant)).merchantId).toBeNull();
    const listed = await call("GET", `/products?merchantId=${merchant.id}`, { headers: tenant.admin });
    expect(listed.body.data.items.map((p: { id: string }) => p.id)).toEqual([product.id]);
    expect(listed.body.data.totalCount).toBe(1);
    const foreign = await newMerchant(other);
    for (const merchantId of [foreign.id, crypto.randomUUID()]) {
      const res = await call("POST", "/products", {
        headers: tenant.admin,
        body: { sku: `SKU-${unique()}`, name: "x", merchantId },
      });
      expect(res.status).toBe(404);
      expect(res.body.errors).toEqual([`merchantId: merchant ${merchantId} not found`]);
    }
    const bad = await call("POST", "/products", {
      headers: tenant.admin,
      body: { sku: `SKU-${unique()}`, name: "x", merchantId: "acme" },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual(["merchantId: must be a merchant's id"]);
  });

  it("is fixed while the product has stock or open orders, and moves when it has neither", async () => {
    const [a, b] = [await newMerchant(), await newMerchant()];
    const { productId, locationId } = await stockedProduct(tenant, 3, { product: { merchantId: a.id } });
    const move = () =>
      call("PATCH", `/products/${productId}`, { headers: tenant.admin, body: { merchantId: b.id } });
    const refused = await move();
    expect(refused.status).toBe(409);
    expect(refused.body.errors?.[0]).toMatch(/^merchantId: the product has stock or open orders/);
    const order = await salesOrder(tenant, [{ productId, quantity: 1 }]);
    expect(order.status).toBe(201);
    await adjustStock(tenant, productId, locationId, -2); // 1 left, reserved by the order
    expect((await move()).status).toBe(409);
    await call("PATCH", `/orders/${order.body.data.id}/status`, {
      headers: tenant.admin,
      body: { status: "cancelled" },
    });
    await adjustStock(tenant, productId, locationId, -1);
    const moved = await move();
    expect(moved.status).toBe(200);
    expect(moved.body.data.merchantId).toBe(b.id);
    // Other fields change while it has stock; the merchant, when sent unchanged, is no move.
    await adjustStock(tenant, productId, locationId, 1);
    const renamed = await call("PATCH", `/products/${productId}`, {
      headers: tenant.admin,
      body: { name: "Renamed", merchantId: b.id },
    });
    expect(renamed.status).toBe(200);
    const unknownMerchant = await call("PATCH", `/products/${productId}`, {
      headers: tenant.admin,
      body: { merchantId: crypto.randomUUID() },
    });
    expect(unknownMerchant.status).toBe(409);
  });

  it("is set in bulk for new products; a line naming another merchant than a stored SKU's is that merchant's own product", async () => {
    const [a, b] = [await newMerchant(), await newMerchant()];
    const sku = `SKU-${unique()}`;
    const first = await call("POST", "/products/batch", {
      headers: tenant.admin,
      body: {
        products: [
          { sku, name: "x", merchantId: a.id },
          { sku: `SKU-${unique()}`, name: "y", merchantId: crypto.randomUUID() },
        ],
      },
    });
    expect(first.status).toBe(200);
    expect(first.body.data.results[0]?.status).toBe(201);
    expect(first.body.data.results[1]).toMatchObject({ status: 400 });
    expect(first.body.data.results[1]?.errors?.[0]).toMatch(/^merchantId: merchant .* not found$/);
    const ofA = first.body.data.results[0]?.id;
    // SKUs are unique per merchant (issue #44, merchants.md): a bulk line never moves a stored product to
    // another merchant; naming merchant B with A's SKU is B's product of that SKU, and A's stays A's.
    const ofB = await call("POST", "/products/batch", {
      headers: tenant.admin,
      body: { products: [{ sku, name: "B's", merchantId: b.id }] },
    });
    expect(ofB.status).toBe(200);
    expect(ofB.body.data.results[0]).toMatchObject({ status: 201, action: "created" });
    expect(ofB.body.data.results[0]?.id).not.toBe(ofA);
    const stored = async (id: string | undefined) =>
      (await call("GET", `/products/${id}`, { headers: tenant.admin })).body.data;
    expect(await stored(ofA)).toMatchObject({ sku, name: "x", merchantId: a.id });
    expect(await stored(ofB.body.data.results[0]?.id)).toMatchObject({ sku, name: "B's", merchantId: b.id });
  });
});

describe("a kit's components", () => {
  it("are the kit's merchant's goods: another merchant's or the tenant's own are refused, on create and on a move", async () => {
    const [a, b] = [await newMerchant(), await newMerchant()];
    const [ofA, ofA2, ofB, own] = [
      await createProduct(tenant, { merchantId: a.id }),
      await createProduct(tenant, { merchantId: a.id }),
      await createProduct(tenant, { merchantId: b.id }),
      await createProduct(tenant),
    ];
    const foreign = await kitOf(a.id, ofA, ofB);
    expect(foreign.status).toBe(400);
    expect(foreign.body.errors).toEqual([
      `components[1].productId: ${ofB.sku} is not of the kit's merchant (${a.id}); a kit and its components belong to one merchant`,
    ]);
    const unassigned = await kitOf(a.id, own);
    expect(unassigned.status).toBe(400);
    expect(unassigned.body.errors).toEqual([
      `components[0].productId: ${own.sku} is not of the kit's merchant (${a.id}); a kit and its components belong to one merchant`,
    ]);
    const tenantsKit = await kitOf(undefined, ofA);
    expect(tenantsKit.status).toBe(400);
    expect(tenantsKit.body.errors).toEqual([
      `components[0].productId: ${ofA.sku} is not of the tenant's own goods; a kit and its components belong to one merchant`,
    ]);
    expect((await kitOf(undefined, own)).status).toBe(201);

    const made = await kitOf(a.id, ofA, ofA2);
    expect(made.status).toBe(201);
    const id = made.body.data.id;
    // Moving the kit to B would leave it A's components; sending B's components with the move is accepted.
    const moved = await call("PATCH", `/products/${id}`, {
      headers: tenant.admin,
      body: { merchantId: b.id },
    });
    expect(moved.status).toBe(400);
    expect(moved.body.errors?.[0]).toMatch(/^components\[0\]\.productId: .* is not of the kit's merchant/);
    expect((await call("GET", `/products/${id}`, { headers: tenant.admin })).body.data.merchantId).toBe(a.id);
    const changed = await call("PATCH", `/products/${id}`, {
      headers: tenant.admin,
      body: { components: [{ productId: ofB.id, quantity: 2 }] },
    });
    expect(changed.status).toBe(400);
    const both = await call("PATCH", `/products/${id}`, {
      headers: tenant.admin,
      body: { merchantId: b.id, components: [{ productId: ofB.id, quantity: 2 }] },
    });
    expect(both.status, JSON.stringify(both.body)).toBe(200);
    expect(both.body.data).toMatchObject({
      merchantId: b.id,
      components: [{ productId: ofB.id, quantity: 2 }],
    });
  });
});

describe("a component's merchant", () => {
  const moveTo = (productId: string, merchantId: string | null) =>
    call("PATCH", `/products/${productId}`, { headers: tenant.admin, body: { merchantId } });
  const merchantOf = async (productId: string) =>
    (await call("GET", `/products/${productId}`, { headers: tenant.admin })).body.data.merchantId;

  it("stays its kits' merchant: moving it is refused (409) naming every kit that lists it, until it leaves them", async () => {
    const [a, b] = [await newMerchant(), await newMerchant()];
    const [part, other] = [
      await createProduct(tenant, { merchantId: a.id }),
      await createProduct(tenant, { merchantId: a.id }),
    ];
    const [first, second] = [(await kitOf(a.id, part)).body.data, (await kitOf(a.id, other, part)).body.data];
    const named = [first, second]
      .sort((x, y) => x.sku.localeCompare(y.sku))
      .map((kit) => `${kit.sku} (${kit.id})`)
      .join(", ");
    for (const target of [b.id, null]) {
      const refused = await moveTo(part.id, target);
      expect(refused.status).toBe(409);
      expect(refused.body.errors).toEqual([
        `merchantId: ${part.sku} is a component of kits ${named} of another owner; a kit and its components belong to one merchant`,
      ]);
    }
    expect(await merchantOf(part.id)).toBe(a.id);
    // Out of one kit, the other is still named; out of both, it moves.
    await call("PATCH", `/products/${first.id}`, {
      headers: tenant.admin,
      body: { components: [{ productId: other.id, quantity: 1 }] },
    });
    const still = await moveTo(part.id, b.id);
    expect(still.status).toBe(409);
    expect(still.body.errors?.[0]).toContain(`kit ${second.sku} (${second.id}) of another owner`);
    await call("PATCH", `/products/${second.id}`, {
      headers: tenant.admin,
      body: { components: [{ productId: other.id, quantity: 1 }] },
    });
    expect((await moveTo(part.id, b.id)).status).toBe(200);
    expect(await merchantOf(part.id)).toBe(b.id);
  });

  it("and a kit's new components are never split by a move racing them: exactly one write wins", async () => {
    const [a, b] = [await newMerchant(), await newMerchant()];
    // Each write starts after a few unrelated requests, so the rounds commit the two in different interleavings
    // (a write's reads before the other's batch, and after it).
    const after = async <T>(requests: number, write: () => Promise<T>) => {
      for (let i = 0; i < requests; i++) await call("GET", "/merchants", { headers: tenant.admin });
      return write();
    };
    for (let round = 0; round < 12; round++) {
      const [part, kept] = [
        await createProduct(tenant, { merchantId: a.id }),
        await createProduct(tenant, { merchantId: a.id }),
      ];
      const existing = (await kitOf(a.id, kept)).body.data;
      // A kit takes the part (a new kit, or an existing kit's new components) while the part moves to B.
      const [kitWrite, move] = await Promise.all([
        after(round % 6, () =>
          round < 6
            ? kitOf(a.id, kept, part)
            : call("PATCH", `/products/${existing.id}`, {
                headers: tenant.admin,
                body: {
                  components: [
                    { productId: kept.id, quantity: 1 },
                    { productId: part.id, quantity: 1 },
                  ],
                },
              }),
        ),
        moveTo(part.id, b.id),
      ]);
      const statuses = [kitWrite.status, move.status];
      expect(
        statuses.filter((s) => s < 300),
        JSON.stringify(statuses),
      ).toHaveLength(1);
      if (move.status < 300) {
        expect(kitWrite.status).toBe(400);
        expect(kitWrite.body.errors?.[0]).toMatch(
          /^components\[1\]\.productId: .* is not of the kit's merchant/,
        );
      } else {
        expect(move.status).toBe(409);
        expect(await merchantOf(part.id)).toBe(a.id);
      }
      // Whoever won, every kit listing the part is the part's merchant's.
      const products = await call("GET", `/products?merchantId=${a.id}&pageSize=100`, {
        headers: tenant.admin,
      });
      const listing = (products.body.data.items as { components: { productId: string }[] }[]).filter((k) =>
        k.components.some((c) => c.productId === part.id),
      );
      expect(listing.length > 0).toBe(move.status >= 300);
    }
  });
});

describe("an order's merchant", () => {
  it("is its products' merchant, and an order may not mix merchants", async () => {
    const [a, b] = [await newMerchant(), await newMerchant()];
    const { productId: pa, warehouseId } = await stockedProduct(tenant, 5, { product: { merchantId: a.id } });
    const { productId: pb } = await stockedProduct(tenant, 5, { warehouseId, product: { merchantId: b.id } });
    const { productId: own } = await stockedProduct(tenant, 5, { warehouseId });
    const sales = await salesOrder(tenant, [{ productId: pa, quantity: 1 }]);
    expect(sales.status).toBe(201);
    expect(sales.body.data.merchantId).toBe(a.id);
    const ownOrder = await salesOrder(tenant, [{ productId: own, quantity: 1 }]);
    expect(ownOrder.body.data.merchantId).toBeNull();
    for (const lines of [
      [pa, pb],
      [pa, own],
    ]) {
      const mixed = await salesOrder(
        tenant,
        lines.map((productId) => ({ productId, quantity: 1 })),
      );
      expect(mixed.status).toBe(400);
      expect(mixed.body.errors).toHaveLength(1);
      expect(mixed.body.errors?.[0]).toMatch(/^lines\[1\]\.productId: .*an order may not mix merchants$/);
    }
    const purchase = await purchaseOrder(tenant, warehouseId, [
      { productId: pb, quantity: 1 },
      { productId: pa, quantity: 1 },
    ]);
    expect(purchase.status).toBe(400);
    const list = await call("GET", `/orders/${sales.body.data.id}`, { headers: tenant.admin });
    expect(list.body.data.merchantId).toBe(a.id);
    // Nothing of the refused orders was kept: the stock of pa is 5 less the one reserved.
    const levels = await call("GET", `/inventory/stock?productId=${pa}`, { headers: tenant.admin });
    expect(levels.body.data.items[0]).toMatchObject({ onHand: 5, reserved: 1 });
  });
});
