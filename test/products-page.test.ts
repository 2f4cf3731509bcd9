import { beforeAll, describe, expect, it } from "vitest";
import { createProduct, createTenant, type TestTenant } from "./support/builders";
import { call } from "./support/http";

// The product page's statements are compiled once per isolate for each shape (src/products/list-products.ts):
// the tenant, the merchant and every filter's value are bound per request. This file's requests all run in one
// isolate, so each page below is read with the text an earlier one compiled, for another tenant or merchant.

let a: TestTenant;
let b: TestTenant;
let asMerchant: Record<string, string>;
const skus = { a: [] as string[], b: [] as string[], merchant: [] as string[] };

beforeAll(async () => {
  [a, b] = await Promise.all([createTenant(), createTenant()]);
  const merchant = await call("POST", "/merchants", {
    headers: a.admin,
    body: { code: `M-${crypto.randomUUID().slice(0, 8)}`, name: "Acme" },
  });
  const key = await call("POST", "/api-keys", {
    headers: a.admin,
    body: {
      name: "merchant",
      scopes: ["read:products", "write:products"],
      merchantId: merchant.body.data.id,
    },
  });
  asMerchant = { "x-api-key": key.body.data.key };
  // Newest last: a page lists newest first.
  for (const [who, sku, category, name] of [
    [a, "A-1", "tools", "steel hammer"],
    [a, "A-2", "tools", "brass hinge"],
    [a, "A-3", "paint", "steel brush"],
    [b, "B-1", "tools", "steel hammer"],
  ] as const) {
    await createProduct(who, { sku: `${sku}-${crypto.randomUUID().slice(0, 6)}`, category, name });
    skus[who === a ? "a" : "b"].unshift(sku);
  }
  const own = await call("POST", "/products", {
    headers: asMerchant,
    body: { sku: `M-1-${crypto.randomUUID().slice(0, 6)}`, name: "steel saw", category: "tools" },
  });
  expect(own.status).toBe(201);
  skus.merchant.unshift("M-1");
});

/** The page's SKUs (without their unique suffix) and its total. */
async function page(headers: Record<string, string>, query = "pageSize=20") {
  const res = await call("GET", `/products?${query}`, { headers });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const data = res.body.data;
  return {
    skus: data.items.map((p: { sku: string }) => p.sku.replace(/-[0-9a-f]{6}$/, "")),
    total: data.totalCount,
  };
}

describe("the product page, compiled once per shape", () => {
  it("shows each tenant and each merchant only its own, whichever read the same shape before", async () => {
    const everyA = ["M-1", ...skus.a];
    for (let round = 0; round < 2; round++) {
      expect(await page(a.admin)).toEqual({ skus: everyA, total: 4 });
      expect(await page(b.admin)).toEqual({ skus: skus.b, total: 1 });
      expect(await page(asMerchant)).toEqual({ skus: ["M-1"], total: 1 });
    }
    expect(await page(asMerchant)).toEqual({ skus: ["M-1"], total: 1 });
    expect(await page(a.admin)).toEqual({ skus: everyA, total: 4 });
  });

  it("binds each filter's and search's value, never the first one asked", async () => {
    expect(await page(a.admin, "category=tools")).toEqual({ skus: ["M-1", "A-2", "A-1"], total: 3 });
    expect(await page(a.admin, "category=paint")).toEqual({ skus: ["A-3"], total: 1 });
    expect(await page(b.admin, "category=tools")).toEqual({ skus: ["B-1"], total: 1 });
    expect(await page(asMerchant, "category=paint")).toEqual({ skus: [], total: 0 });
    expect(await page(a.admin, "search=steel")).toEqual({ skus: ["M-1", "A-3", "A-1"], total: 3 });
    expect(await page(a.admin, "search=hinge")).toEqual({ skus: ["A-2"], total: 1 });
    expect(await page(b.admin, "search=steel")).toEqual({ skus: ["B-1"], total: 1 });
    expect(await page(asMerchant, "search=steel")).toEqual({ skus: ["M-1"], total: 1 });
    // A short term reads prefixes (of a SKU, a name or a barcode), its text built for the term.
    expect(await page(a.admin, "search=br")).toEqual({ skus: ["A-2"], total: 1 });
    expect(await page(a.admin, "search=st")).toEqual({ skus: ["M-1", "A-3", "A-1"], total: 3 });
  });

  it("binds the page and its size", async () => {
    const first = await page(a.admin, "pageSize=2&page=1");
    const second = await page(a.admin, "pageSize=2&page=2");
    expect([...first.skus, ...second.skus]).toEqual(["M-1", ...skus.a]);
    expect((await page(b.admin, "pageSize=2&page=2")).skus).toEqual([]);
  });
});
