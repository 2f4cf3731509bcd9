import { env } from "cloudflare:workers";
import { assert, describe, expect, it } from "vitest";
import { shardDatabase, shardNames } from "../src/db/shards";
import { sweepIdempotencyKeys } from "../src/idempotency/sweep";
import {
  adjustStock,
  createLocation,
  createProduct,
  createTenant,
  createWarehouse,
  PLATFORM,
  salesOrder,
  scopedKey,
  setStatus,
  stockedProduct,
} from "./support/builders";
import { tenantDatabase } from "./support/database";
import { call } from "./support/http";
import { stubReceiver } from "./support/webhook-receiver";

// Tenants live on the shards SHARD_0, SHARD_1 (docs/decisions/scale-out.md): the tests run with two.

const hopsOf = (response: { headers: Headers }) =>
  Number(/hops=(\d+)/.exec(response.headers.get("X-D1-Stats") ?? "")?.[1]);

describe("placement", () => {
  it("runs with at least two shards, read from the bindings", () => {
    expect(shardNames(env)).toEqual(expect.arrayContaining(["SHARD_0", "SHARD_1"]));
  });

  it("places a tenant on the shard the operator names, shows it in the tenant record, and refuses an unknown one", async () => {
    const placed = await call("POST", "/platform/tenants", {
      headers: PLATFORM,
      body: {
        name: "Placed",
        plan: "business",
        owner: {
          email: `placed-${crypto.randomUUID()}@example.com`,
          password: "owner-password-1",
          name: "O",
        },
        shard: "SHARD_1",
      },
    });
    expect(placed.status).toBe(201);
    expect(placed.body.data.tenant.shard).toBe("SHARD_1");
    const listed = await call("GET", "/platform/tenants?pageSize=100&sort=-createdAt", { headers: PLATFORM });
    expect(listed.body.data.items.find((t) => t.id === placed.body.data.tenant.id)?.shard).toBe("SHARD_1");
    const unknown = await call("POST", "/platform/tenants", {
      headers: PLATFORM,
      body: {
        name: "Nowhere",
        plan: "business",
        owner: {
          email: `nowhere-${crypto.randomUUID()}@example.com`,
          password: "owner-password-1",
          name: "O",
        },
        shard: "SHARD_99",
      },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors?.[0]).toContain("shard");
  });

  it("places a new tenant on the shard holding the least data", async () => {
    // Fill SHARD_0 well beyond SHARD_1, then let placement choose.
    const big = await createTenant({ shard: "SHARD_0" });
    await call("POST", "/products/import", {
      headers: big.admin,
      body: Array.from({ length: 1500 }, (_, i) => ({
        sku: `BIG-${i}`,
        name: `Big ${"x".repeat(200)} ${i}`,
      })),
    });
    const shards = (await call("GET", "/platform/shards", { headers: PLATFORM })).body.data;
    const smallest = [...shards].sort((a, b) => a.sizeBytes - b.sizeBytes)[0]?.name;
    const placed = await call("POST", "/platform/tenants", {
      headers: PLATFORM,
      body: {
        name: "Auto",
        plan: "business",
        owner: { email: `auto-${crypto.randomUUID()}@example.com`, password: "owner-password-1", name: "O" },
      },
    });
    expect(placed.body.data.tenant.shard).toBe(smallest);
  });

  it("lists every shard with its tenants, size and the row counts of its big tables", async () => {
    const tenant = await createTenant({ shard: "SHARD_1" });
    await createProduct(tenant);
    const res = await call("GET", "/platform/shards", { headers: PLATFORM });
    expect(res.status).toBe(200);
    const names = res.body.data.map((s) => s.name);
    expect(names).toEqual(shardNames(env));
    const one = res.body.data.find((s) => s.name === "SHARD_1");
    assert(one, "SHARD_1 is listed");
    expect(one.tenants).toBeGreaterThanOrEqual(1);
    expect(one.sizeBytes).toBeGreaterThan(0);
    expect(one.rows.products).toBeGreaterThanOrEqual(1);
    expect((await call("GET", "/platform/shards", { headers: tenant.admin })).status).toBe(401);
  });
});

describe("tenants on different shards", () => {
  it("see only their own data, for every kind of resource", async () => {
    const a = await createTenant({ shard: "SHARD_0" });
    const b = await createTenant({ shard: "SHARD_1" });
    const created = async (tenant: typeof a) => {
      const { warehouseId, locationId, productId } = await stockedProduct(tenant, 5);
      const order = (await salesOrder(tenant, [{ productId, quantity: 1 }])).body.data;
      const webhook = (
        await call("POST", "/webhooks", {
          headers: tenant.admin,
          body: { url: "https://example.com/hook", events: ["order.created"] },
        })
      ).body.data;
      return {
        [`/products/${productId}`]: productId,
        [`/warehouses/${warehouseId}`]: warehouseId,
        [`/locations/${locationId}`]: locationId,
        [`/orders/${order.id}`]: order.id,
        [`/webhooks/${webhook.id}`]: webhook.id,
      };
    };
    const ofA = await created(a);
    const ofB = await created(b);
    for (const [own, other, theirs] of [
      [a, b, ofB],
      [b, a, ofA],
    ] as const) {
      for (const path of Object.keys(theirs)) {
        expect((await call("GET", path, { headers: own.admin })).status, path).toBe(404);
      }
      for (const list of [
        "/products",
        "/warehouses",
        "/locations",
        "/orders",
        "/webhooks",
        "/inventory/stock",
      ]) {
        const body = JSON.stringify((await call("GET", `${list}?pageSize=100`, { headers: own.admin })).body);
        for (const id of Object.values(theirs)) expect(body, list).not.toContain(id);
      }
      expect(other.id).not.toBe(own.id);
    }
    // Each tenant's rows are on its own shard only.
    const onShard = async (shard: string, tenantId: string) =>
      (
        await shardDatabase(env, shard)
          .prepare("select count(*) as n from products where tenant_id = ?")
          .bind(tenantId)
          .first<{ n: number }>()
      )?.n;
    expect(await onShard("SHARD_0", a.id)).toBe(1);
    expect(await onShard("SHARD_1", a.id)).toBe(0);
    expect(await onShard("SHARD_1", b.id)).toBe(1);
    expect(await onShard("SHARD_0", b.id)).toBe(0);
  });

  it("run the whole flow on the second shard: catalog, stock, order, shipping, webhook delivery, reports", async () => {
    const tenant = await createTenant({ shard: "SHARD_1" });
    const subscription = await call("POST", "/webhooks", {
      headers: tenant.admin,
      body: { url: "https://shop.example.com/orders", events: ["order.created", "order.shipped"] },
    });
    expect(subscription.status).toBe(201);
    const { received } = stubReceiver();
    const warehouseId = (await createWarehouse(tenant)).id;
    const locationId = (await createLocation(tenant, warehouseId)).id;
    const productId = (await createProduct(tenant, { price: 5, cost: 2 })).id;
    await adjustStock(tenant, productId, locationId, 10);
    const order = (await salesOrder(tenant, [{ productId, quantity: 3, price: 5 }])).body.data;
    expect((await setStatus(tenant, order.id, { status: "confirmed" })).status).toBe(200);
    expect((await setStatus(tenant, order.id, { status: "shipped", trackingNumber: "T-1" })).status).toBe(
      200,
    );
    const ours = () => received.filter((r) => r.url === "https://shop.example.com/orders");
    await expect.poll(() => ours().length, { timeout: 5000 }).toBe(2);

    const valuation = await call("GET", "/reports/inventory-valuation", { headers: tenant.admin });
    expect(valuation.status).toBe(200);
    expect(JSON.stringify(valuation.body.data)).toContain(productId);
    const today = new Date().toISOString().slice(0, 10);
    const summary = await call("GET", `/reports/order-summary?from=${today}&to=${today}`, {
      headers: tenant.admin,
    });
    expect(summary.status).toBe(200);
    expect(JSON.stringify(summary.body.data)).toContain('"orders":1');
    const stock = await call("GET", `/inventory/stock?productId=${productId}`, { headers: tenant.admin });
    expect(stock.body.data.items).toEqual([expect.objectContaining({ onHand: 7 })]);
    const rows = await (await tenantDatabase(tenant.id))
      .prepare("select count(*) as n from stock_movements where tenant_id = ?")
      .bind(tenant.id)
      .first<{ n: number }>();
    expect(rows?.n).toBe(2);
    const onFirstShard = await shardDatabase(env, "SHARD_0")
      .prepare("select count(*) as n from stock_movements where tenant_id = ?")
      .bind(tenant.id)
      .first<{ n: number }>();
    expect(onFirstShard?.n).toBe(0);
  });

  it("authenticate an API key of a tenant on SHARD_1 with one lookup, and read in one round trip once seen", async () => {
    const tenant = await createTenant({ shard: "SHARD_1" });
    await createProduct(tenant);
    const key = await scopedKey(tenant, ["read:products"]);
    const first = await call("GET", "/products?pageSize=20", { headers: key });
    expect(first.status).toBe(200);
    expect(first.body.data.items).toHaveLength(1);
    expect(first.headers.get("X-D1-Stats")).toContain("calls=2;");
    expect(hopsOf(first)).toBe(2);
    const next = await call("GET", "/products?pageSize=20", { headers: key });
    expect(next.body.data.items).toHaveLength(1);
    expect(hopsOf(next)).toBe(1);
  });
});

describe("sweeps", () => {
  it("cover every shard", async () => {
    const tenants = await Promise.all(shardNames(env).map((shard) => createTenant({ shard })));
    for (const tenant of tenants) {
      const res = await call("POST", "/products", {
        headers: { ...tenant.admin, "Idempotency-Key": "sweep-me" },
        body: { sku: "SWEEP", name: "Sweep" },
      });
      expect(res.status).toBe(201);
      await (await tenantDatabase(tenant.id))
        .prepare("update idempotency_keys set expires_at = ? where tenant_id = ?")
        .bind("2000-01-01T00:00:00.000Z", tenant.id)
        .run();
    }
    await sweepIdempotencyKeys(env);
    for (const tenant of tenants) {
      const left = await (await tenantDatabase(tenant.id))
        .prepare("select count(*) as n from idempotency_keys where tenant_id = ?")
        .bind(tenant.id)
        .first<{ n: number }>();
      expect(left?.n).toBe(0);
    }
  });
});
