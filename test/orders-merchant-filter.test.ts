import { beforeAll, describe, expect, it } from "vitest";
import {
  adjustStock,
  createLocation,
  createProduct,
  createTenant,
  createWarehouse,
  salesOrder,
  scopedKey,
  type TestTenant,
  unique,
} from "./support/builders";
import { call } from "./support/http";

// GET /orders?merchantId= (issue #45): a 3PL lists one merchant's orders, as GET /products?merchantId= lists its
// products; the web app's Orders page filters by it.

let tenant: TestTenant;
let other: TestTenant;
let acme: string;
let beta: string;
let binId: string;
beforeAll(async () => {
  [tenant, other] = await Promise.all([createTenant(), createTenant()]);
  [acme, beta] = [await merchant(tenant), await merchant(tenant)];
  binId = (await createLocation(tenant, (await createWarehouse(tenant)).id)).id;
});

async function merchant(who: TestTenant) {
  const res = await call("POST", "/merchants", {
    headers: who.admin,
    body: { code: `M-${unique()}`, name: "Acme Outdoor" },
  });
  expect(res.status).toBe(201);
  return res.body.data.id as string;
}

/** A sales order of one unit of a new product of `merchantId` (null: the tenant's own goods). */
async function orderOf(merchantId: string | null) {
  const product = await createProduct(tenant, merchantId ? { merchantId } : {});
  await adjustStock(tenant, product.id, binId, 1);
  const order = await salesOrder(tenant, [{ productId: product.id, quantity: 1 }]);
  expect(order.status).toBe(201);
  expect(order.body.data.merchantId).toBe(merchantId);
  return order.body.data.id as string;
}

const list = (query: string, headers: Record<string, string> = tenant.admin) =>
  call("GET", `/orders?${query}`, { headers });
const idsOf = (res: Awaited<ReturnType<typeof list>>) => {
  expect(res.status).toBe(200);
  return res.body.data.items.map((o: { id: string }) => o.id).sort();
};

describe("GET /orders?merchantId=", () => {
  it("lists only that merchant's orders, with the other filters", async () => {
    const acmeOrders = [await orderOf(acme), await orderOf(acme)];
    const betaOrder = await orderOf(beta);
    const own = await orderOf(null);
    expect(idsOf(await list(`merchantId=${acme}`))).toEqual([...acmeOrders].sort());
    expect(idsOf(await list(`merchantId=${beta}&type=sales`))).toEqual([betaOrder]);
    expect(idsOf(await list(`merchantId=${beta}&type=purchase`))).toEqual([]);
    expect((await list(`merchantId=${acme}`)).body.data.totalCount).toBe(2);
    // Without the filter every owner's orders are listed, the tenant's own among them.
    expect(idsOf(await list("pageSize=100"))).toEqual([...acmeOrders, betaOrder, own].sort());
  });

  it("answers 404 for another tenant's merchant or one that does not exist, naming the id", async () => {
    const foreign = await merchant(other);
    for (const id of [foreign, crypto.randomUUID()]) {
      const res = await list(`merchantId=${id}`);
      expect(res.status).toBe(404);
      expect(res.body.errors).toEqual([`merchantId: merchant ${id} not found`]);
    }
    // The other tenant sees its own merchant's (none), not this tenant's.
    expect(idsOf(await list(`merchantId=${foreign}`, other.admin))).toEqual([]);
    expect((await list(`merchantId=${acme}`, other.admin)).status).toBe(404);
  });

  it("answers 404 to a merchant's key for another merchant, and lists its own", async () => {
    const key = await call("POST", "/api-keys", {
      headers: tenant.admin,
      body: { name: "Acme's key", scopes: ["read:orders"], merchantId: acme },
    });
    expect(key.status).toBe(201);
    const acmeKey = { "x-api-key": key.body.data.key as string };
    expect((await list(`merchantId=${beta}`, acmeKey)).status).toBe(404);
    const mine = await list(`merchantId=${acme}`, acmeKey);
    expect(mine.status).toBe(200);
    for (const order of mine.body.data.items) expect(order.merchantId).toBe(acme);
  });

  it("refuses a merchantId that is not a UUID (400) and needs read:orders (401, 403)", async () => {
    const bad = await list("merchantId=ACME");
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual(["merchantId: must be a merchant's id"]);
    expect((await call("GET", `/orders?merchantId=${acme}`)).status).toBe(401);
    const stockReader = await scopedKey(tenant, ["read:inventory"]);
    expect((await list(`merchantId=${acme}`, stockReader)).status).toBe(403);
  });
});
