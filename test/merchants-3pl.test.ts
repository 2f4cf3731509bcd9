import { describe, expect, it } from "vitest";
import {
  adjustStock,
  createLocation,
  createMerchant,
  createProduct,
  createTenant,
  createWarehouse,
  newMember,
  salesOrder,
  seedLocation,
  seedStockedProducts,
  seedWarehouse,
  setStatus,
  type TestTenant,
  unique,
  whoAmI,
} from "./support/builders";
import { call } from "./support/http";
import { mailCount, mailTo, tokenIn } from "./support/mail";

// Issue #44, a 3PL's identity: what a merchant's credential creates touches its own goods only, a merchant's SKUs
// and barcodes are its own (no other brand's catalogue shows through a conflict), and a merchant is not deleted
// while something still acts for it.

type Headers = Record<string, string>;

async function merchantKey(
  t: TestTenant,
  merchantId: string,
  scopes = ["write:products", "write:inventory", "write:orders"],
) {
  const res = await call("POST", "/api-keys", {
    headers: t.admin,
    body: { name: "brand", scopes, merchantId },
  });
  expect(res.status).toBe(201);
  return { id: res.body.data.id as string, headers: { "x-api-key": res.body.data.key as string } as Headers };
}

const restrict = (t: TestTenant, userId: string, merchantId: string | null, role: string) =>
  call("PUT", `/users/${userId}`, { headers: t.admin, body: { role, merchantId } });

async function invite(headers: Headers, body: Record<string, unknown>) {
  const email = `invitee-${unique()}@example.com`;
  const before = mailCount(email);
  const res = await call("POST", "/users", { headers, body: { email, ...body } });
  return { res, email, token: res.status === 202 ? tokenIn(await mailTo(email, before)) : "" };
}

describe("a merchant's count of a warehouse (POST /inventory/counts {warehouseId})", () => {
  it("attack: snapshots only its own goods, which alone weigh against the size limit, and it can read the count", async () => {
    const t = await createTenant();
    const m = await createMerchant(t);
    // The tenant's other goods fill the warehouse past what one count holds (2,000 lines).
    const warehouseId = await seedWarehouse(t);
    await seedStockedProducts(t, await seedLocation(t, warehouseId), 2001, () => 3);
    const bin = await createLocation(t, warehouseId);
    const own = await createProduct(t, { merchantId: m });
    await adjustStock(t, own.id, bin.id, 4);
    const brand = await merchantKey(t, m);

    const count = await call("POST", "/inventory/counts", { headers: brand.headers, body: { warehouseId } });
    expect(count.status, JSON.stringify(count.body)).toBe(201);
    expect(count.body.data.lines.map((l: { productId: string }) => l.productId)).toEqual([own.id]);
    expect(count.body.data.productIds).toEqual([own.id]);
    expect(
      (await call("GET", `/inventory/counts/${count.body.data.id}`, { headers: brand.headers })).status,
    ).toBe(200);
    // The tenant's own count of that warehouse is still too large: the limit is unchanged.
    const whole = await call("POST", "/inventory/counts", { headers: t.admin, body: { warehouseId } });
    expect(whole.status).toBe(400);
  });

  it("is a 409 when nothing of its own is on hand there", async () => {
    const t = await createTenant();
    const m = await createMerchant(t);
    const warehouse = await createWarehouse(t);
    const bin = await createLocation(t, warehouse.id);
    await adjustStock(t, (await createProduct(t)).id, bin.id, 2);
    const brand = await merchantKey(t, m);
    const count = await call("POST", "/inventory/counts", {
      headers: brand.headers,
      body: { warehouseId: warehouse.id },
    });
    expect(count.status).toBe(409);
    expect(count.body.errors).toEqual([
      "productIds: no product of this merchant has stock in this scope; name productIds to count them",
    ]);
  });
});
describe("DELETE /merchants/{id} while something acts for it", () => {
  it("attack: is refused (409 naming each key, member and invitation) until none is left", async () => {
    const t = await createTenant();
    const m = await createMerchant(t);
    const key = await call("POST", "/api-keys", {
      headers: t.admin,
      body: { name: "brand feed", scopes: ["read:products"], merchantId: m },
    });
    const member = await newMember(t, "viewer");
    expect((await restrict(t, member.id, m, "viewer")).status).toBe(200);
    const sent = await invite(t.admin, { role: "viewer", merchantId: m });

    const refused = await call("DELETE", `/merchants/${m}`, { headers: t.admin });
    expect(refused.status).toBe(409);
    expect(refused.body.errors).toEqual([
      `apiKeys: brand feed (${key.body.data.id}) acts for this merchant`,
      `users: ${member.email} (${member.id}) acts for this merchant`,
      `invitations: ${sent.email} (${sent.res.body.data.id}) is invited to act for this merchant`,
    ]);
    const keyHeaders = { "x-api-key": key.body.data.key as string };
    expect((await whoAmI(keyHeaders, "api_key")).apiKey.merchantId).toBe(m);

    expect((await call("DELETE", `/api-keys/${key.body.data.id}`, { headers: t.admin })).status).toBe(200);
    expect((await restrict(t, member.id, null, "viewer")).status).toBe(200);
    expect(
      (await call("DELETE", `/users/invitations/${sent.res.body.data.id}`, { headers: t.admin })).status,
    ).toBe(200);
    expect((await call("DELETE", `/merchants/${m}`, { headers: t.admin })).status).toBe(200);
    expect((await call("GET", "/auth/me", { headers: keyHeaders })).status).toBe(401);
  });
});

describe("SKUs and barcodes per merchant", () => {
  it("attack: a merchant's product with another merchant's SKU and GTIN is its own (no 409 oracle); two brands both sell TSHIRT-M", async () => {
    const t = await createTenant();
    const [ma, mb] = [await createMerchant(t), await createMerchant(t)];
    const sku = `TSHIRT-M-${unique()}`;
    const gtin = "4006381333931";
    const theirs = await createProduct(t, { merchantId: mb, sku, barcode: gtin });
    const brand = await merchantKey(t, ma);
    const ours = await call("POST", "/products", {
      headers: brand.headers,
      body: { sku, name: "Ours", barcode: gtin },
    });
    expect(ours.status, JSON.stringify(ours.body)).toBe(201);
    expect(ours.body.data).toMatchObject({ sku, barcode: gtin, merchantId: ma });
    // Within one owner a SKU is still unique, and the 409 tells nothing about another brand.
    const again = await call("POST", "/products", { headers: brand.headers, body: { sku, name: "Twice" } });
    expect(again.status).toBe(409);
    const tenantOwn = await call("POST", "/products", {
      headers: t.admin,
      body: { sku, name: "The 3PL's own" },
    });
    expect(tenantOwn.status).toBe(201);
    expect(tenantOwn.body.data.merchantId).toBeNull();
    const stored = await call("GET", `/products/${theirs.id}`, { headers: t.admin });
    expect(stored.body.data).toMatchObject({ name: "Widget", merchantId: mb });

    // The barcode lookup lists each match the caller may see, with its merchant.
    const resolved = async (headers: Headers) => {
      const found = await call("GET", `/barcodes/${gtin}`, { headers });
      return found.body.data.matches.flatMap((m) => (m.type === "product" ? [m.product.id] : [])).sort();
    };
    expect(await resolved(brand.headers)).toEqual([ours.body.data.id]);
    expect(await resolved(t.admin)).toEqual([theirs.id, ours.body.data.id].sort());
  });

  it("attack: a merchant's batch line with another merchant's SKU is a product of its own: no line fails, and dryRun agrees", async () => {
    const t = await createTenant();
    const [ma, mb] = [await createMerchant(t), await createMerchant(t)];
    const taken = await createProduct(t, { merchantId: mb });
    const brand = await merchantKey(t, ma);
    const lines = [
      { sku: taken.sku, name: "Ours too" },
      { sku: `NEW-${unique()}`, name: "New" },
    ];
    const preview = await call("POST", "/products/import?mode=upsert&dryRun=true", {
      headers: brand.headers,
      body: lines,
    });
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    expect(preview.body.data).toMatchObject({ created: 2, updated: 0 });
    const batch = await call("POST", "/products/batch", {
      headers: brand.headers,
      body: { products: lines },
    });
    expect(batch.status, JSON.stringify(batch.body)).toBe(200);
    expect(batch.body.data.results.map((r) => r.action)).toEqual(["created", "created"]);
    expect((await call("GET", `/products/${taken.id}`, { headers: t.admin })).body.data.name).toBe("Widget");
  });

  it("a tenant-wide writer naming a SKU two owners share is told to name the merchant or the product", async () => {
    const t = await createTenant();
    const [ma, mb] = [await createMerchant(t), await createMerchant(t)];
    const sku = `TWIN-${unique()}`;
    const a = await createProduct(t, { merchantId: ma, sku });
    await createProduct(t, { merchantId: mb, sku });
    const batch = await call("POST", "/products/batch", {
      headers: t.admin,
      body: {
        products: [
          { sku, name: "Which?" },
          { sku, merchantId: ma, name: "A's, renamed" },
        ],
      },
    });
    expect(batch.body.data.results[0]).toMatchObject({ status: 409 });
    expect(batch.body.data.results[0]?.errors?.[0]).toContain(`sku: ${sku} names products of several owners`);
    expect(batch.body.data.results[1]).toMatchObject({ action: "updated", id: a.id });
    const warehouse = await createWarehouse(t);
    const bin = await createLocation(t, warehouse.id);
    const adjust = await call("POST", "/inventory/adjustments/batch", {
      headers: t.admin,
      body: { lines: [{ sku, locationId: bin.id, quantity: 1, reason: "count" }] },
    });
    expect(JSON.stringify(adjust.body)).toContain(`sku: ${sku} names products of 2 owners`);
  });

  it("a barcode two merchants share resolves by the merchant of the pick list's line", async () => {
    const t = await createTenant();
    const [ma, mb] = [await createMerchant(t), await createMerchant(t)];
    const gtin = "96385074";
    const warehouse = await createWarehouse(t);
    const bin = await createLocation(t, warehouse.id);
    const pa = await createProduct(t, { merchantId: ma, barcode: gtin });
    const pb = await createProduct(t, { merchantId: mb, barcode: gtin });
    await adjustStock(t, pa.id, bin.id, 5);
    await adjustStock(t, pb.id, bin.id, 5);
    const order = await salesOrder(t, [{ productId: pb.id, quantity: 2 }], { warehouseId: warehouse.id });
    await setStatus(t, order.body.data.id, { status: "confirmed" });
    const list = await call("POST", "/pick-lists", {
      headers: t.admin,
      body: { warehouseId: warehouse.id, orderIds: [order.body.data.id] },
    });
    expect(list.status).toBe(201);
    const picked = await call("POST", `/pick-lists/${list.body.data.id}/picks`, {
      headers: t.admin,
      body: { location: bin.code, product: gtin, quantity: 2 },
    });
    expect(picked.status, JSON.stringify(picked.body)).toBe(200);
    expect(picked.body.data.lines[0]).toMatchObject({ productId: pb.id, pickedQuantity: 2 });
  });

  it("a packaging's barcode is unique among its owner's products and packagings, and moves with its product", async () => {
    const t = await createTenant();
    const [ma, mb, mc] = [await createMerchant(t), await createMerchant(t), await createMerchant(t)];
    const gtin = "4012345000009";
    const pack = (barcode: string) => [{ code: "case", name: "Case", quantity: 12, barcode }];
    const a = await createProduct(t, { merchantId: ma, packagings: pack(gtin) });
    // Other brands print the same code on a product and on a case: their own, no conflict.
    const brandB = await merchantKey(t, mb);
    const product = await call("POST", "/products", {
      headers: brandB.headers,
      body: { sku: `B-${unique()}`, name: "B's", barcode: gtin },
    });
    expect(product.status, JSON.stringify(product.body)).toBe(201);
    const cased = await call("POST", "/products", {
      headers: t.admin,
      body: { sku: `C-${unique()}`, name: "C's case", merchantId: mc, packagings: pack(gtin) },
    });
    expect(cased.status, JSON.stringify(cased.body)).toBe(201);
    // Within one owner the code names one thing: B's product holds it, so B's case may not.
    const twice = await call("POST", "/products", {
      headers: brandB.headers,
      body: { sku: `B2-${unique()}`, name: "B's case", packagings: pack(gtin) },
    });
    expect(twice.status).toBe(409);
    // C's product moving to A takes its case's code along, which A holds already.
    const moved = await call("PATCH", `/products/${cased.body.data.id}`, {
      headers: t.admin,
      body: { merchantId: ma },
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(409);
    expect(JSON.stringify(moved.body.errors)).toContain("barcode");
    expect((await call("GET", `/products/${a.id}`, { headers: t.admin })).body.data.packagings).toHaveLength(
      1,
    );
  });
});
