import { beforeAll, describe, expect, it } from "vitest";
import {
  adjustStock,
  createLocation,
  createProduct,
  createTenant,
  createWarehouse,
  scopedKey,
  type TestTenant,
} from "./support/builders";
import { call } from "./support/http";

// GET /inventory/stock?search= (issue #45): the Stock page's search, by the start of a SKU or any part of a name;
// `sku` stays an exact match.

let tenant: TestTenant;
let other: TestTenant;
beforeAll(async () => {
  [tenant, other] = await Promise.all([createTenant(), createTenant()]);
  const bin = await createLocation(tenant, (await createWarehouse(tenant)).id);
  for (const [sku, name] of [
    ["MUGA-1", "Blue cup"],
    ["CUP-1", "Mug holder"],
    ["PEN-1", "Pen 50%_off"],
    ["XMUG-1", "Plate"],
  ]) {
    const product = await createProduct(tenant, { sku, name });
    await adjustStock(tenant, product.id, bin.id, 3);
  }
  const elsewhere = await createProduct(other, { sku: "MUGA-2", name: "Mug" });
  await adjustStock(
    other,
    elsewhere.id,
    (await createLocation(other, (await createWarehouse(other)).id)).id,
    1,
  );
});

const skusFor = async (query: string, who = tenant) => {
  const res = await call("GET", `/inventory/stock?${query}`, { headers: who.admin });
  expect(res.status).toBe(200);
  return res.body.data.items.map((level) => (level as { sku: string }).sku).sort();
};

describe("GET /inventory/stock?search=", () => {
  it("finds levels by the start of the SKU or any part of the name, in any case", async () => {
    expect(await skusFor("search=mug")).toEqual(["CUP-1", "MUGA-1"]); // not XMUG-1: mug is inside its SKU
    expect(await skusFor("search=MUGA")).toEqual(["MUGA-1"]);
    expect(await skusFor("search=blue%20CUP")).toEqual(["MUGA-1"]);
    expect(await skusFor("search=-1")).toEqual([]);
    // Its wildcards are literal.
    expect(await skusFor("search=50%25_")).toEqual(["PEN-1"]);
    expect(await skusFor("search=%25")).toEqual(["PEN-1"]);
    // `sku` is still exact, and both filters apply together.
    expect(await skusFor("sku=MUGA")).toEqual([]);
    expect(await skusFor("sku=CUP-1&search=mug")).toEqual(["CUP-1"]);
  });

  it("searches only the caller's tenant, needs a credential with read:inventory, and refuses an over-long term (400)", async () => {
    expect(await skusFor("search=muga", other)).toEqual(["MUGA-2"]);
    expect((await call("GET", "/inventory/stock?search=mug")).status).toBe(401);
    const orderReader = await scopedKey(tenant, ["read:orders"]);
    expect((await call("GET", "/inventory/stock?search=mug", { headers: orderReader })).status).toBe(403);
    const long = await call("GET", `/inventory/stock?search=${"x".repeat(101)}`, { headers: tenant.admin });
    expect(long.status).toBe(400);
    expect(long.body.errors?.[0]).toMatch(/^search: /);
  });
});
