import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { runSweeps } from "../src/scheduled";
import {
  createProduct,
  createTenant,
  createWarehouse,
  salesOrder,
  scopedKey,
  stockedProduct,
  type TestTenant,
  tenantWithWarehouse,
  userWithRole,
} from "./support/builders";
import { outboxEvents, stockOf, tenantDatabase } from "./support/database";
import { call } from "./support/http";

let tenant: TestTenant;
let warehouseId: string;
beforeAll(async () => {
  ({ tenant, warehouseId } = await tenantWithWarehouse());
});

/** The ids an adjustment names: a new product and a new bin (in the shared warehouse), no stock yet. */
async function target() {
  const { productId, locationId } = await stockedProduct(tenant, 0, { warehouseId });
  return { productId, locationId };
}

const adjust = (key: string, body: Record<string, unknown>, headers = tenant.admin) =>
  call("POST", "/inventory/adjustments", { headers: { ...headers, "idempotency-key": key }, body });

const onHandOf = async (productId: string) =>
  (await stockOf(tenant, productId)).reduce((sum, l) => sum + l.onHand, 0);

describe("Idempotency-Key", () => {
  it("replays the original status and body and changes nothing the second time", async () => {
    const body = { ...(await target()), quantity: 5, reason: "received" };
    const key = crypto.randomUUID();
    const first = await adjust(key, body);
    expect(first.status).toBe(201);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    const again = await adjust(key, body);
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body).toEqual(first.body);
    expect(await onHandOf(body.productId)).toBe(5);
  });

  it("answers 422 for the same key with another body, and changes nothing", async () => {
    const body = { ...(await target()), quantity: 5, reason: "received" };
    const key = crypto.randomUUID();
    await adjust(key, body);
    const other = await adjust(key, { ...body, quantity: 6 });
    expect(other.status).toBe(422);
    expect(other.body.errors).toEqual([
      "Idempotency-Key: already used with a different method, path or body",
    ]);
    expect(await onHandOf(body.productId)).toBe(5);
  });

  it("lets concurrent requests with one key have exactly one effect", async () => {
    const body = { ...(await target()), quantity: 1, reason: "received" };
    const key = crypto.randomUUID();
    const results = await Promise.all(Array.from({ length: 10 }, () => adjust(key, body)));
    for (const r of results) expect([201, 409]).toContain(r.status);
    const originals = results.filter((r) => r.status === 201 && !r.headers.get("idempotent-replayed"));
    expect(originals).toHaveLength(1);
    const inFlight = results.filter((r) => r.status === 409);
    for (const r of inFlight) {
      expect(r.body.message).toMatch(/still in progress/);
      // What tells a client this conflict is worth retrying (the web app does, with the same key).
      expect(r.headers.get("retry-after")).toBe("1");
    }
    expect(await onHandOf(body.productId)).toBe(1);
  });

  it("creates one order when an order creation is retried", async () => {
    const { productId, locationId } = await target();
    await adjust(crypto.randomUUID(), { productId, locationId, quantity: 10, reason: "received" });
    const key = crypto.randomUUID();
    const order = {
      customerId: crypto.randomUUID(),
      lines: [{ productId, quantity: 2, price: 9.99 }],
      shippingAddress: { street: "1 Main St", city: "Springfield", zip: "12345" },
    };
    const send = () =>
      call("POST", "/orders/sales", { headers: { ...tenant.admin, "idempotency-key": key }, body: order });
    const first = await send();
    const second = await send();
    expect(first.status).toBe(201);
    expect(second.body.data.id).toBe(first.body.data.id);
    expect(second.headers.get("location")).toBe(first.headers.get("location"));
    expect((await call("GET", "/orders", { headers: tenant.admin })).body.data.totalCount).toBe(1);
  });

  // Issue #45: the web app keys every write, so a retried status change, delete or replace acts once.
  it("replays a PATCH: a retried status change answers what it did, not an illegal transition", async () => {
    const { productId } = await stockedProduct(tenant, 5, { warehouseId });
    const order = (await salesOrder(tenant, [{ productId, quantity: 1 }])).body.data;
    const key = crypto.randomUUID();
    const cancel = () =>
      call("PATCH", `/orders/${order.id}/status`, {
        headers: { ...tenant.admin, "idempotency-key": key },
        body: { status: "cancelled" },
      });
    const first = await cancel();
    expect(first.status).toBe(200);
    const again = await cancel();
    expect(again.status).toBe(200);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body).toEqual(first.body);
    const events = await outboxEvents(tenant, /^order\.cancelled$/);
    expect(events.filter((e) => JSON.stringify(e.payload).includes(order.id))).toHaveLength(1);
  });

  it("replays a PUT: a retried replace is written and announced once", async () => {
    const warehouse = await createWarehouse(tenant);
    const key = crypto.randomUUID();
    const rename = () =>
      call("PUT", `/warehouses/${warehouse.id}`, {
        headers: { ...tenant.admin, "idempotency-key": key },
        body: { code: warehouse.code, name: "Renamed once" },
      });
    const first = await rename();
    expect(first.status).toBe(200);
    const again = await rename();
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body).toEqual(first.body);
  });

  it("replays a DELETE: a retried delete answers what it did, not 404", async () => {
    const product = await createProduct(tenant);
    const key = crypto.randomUUID();
    const remove = () =>
      call("DELETE", `/products/${product.id}`, { headers: { ...tenant.admin, "idempotency-key": key } });
    const first = await remove();
    expect(first.status).toBeLessThan(300);
    const again = await remove();
    expect(again.status).toBe(first.status);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    // Without the key the same request now finds nothing: the replay is what kept the answer.
    expect((await call("DELETE", `/products/${product.id}`, { headers: tenant.admin })).status).toBe(404);
  });

  it("is scoped to the tenant", async () => {
    const other = await createTenant();
    const mine = { ...(await target()), quantity: 2, reason: "received" };
    const { productId, locationId } = await stockedProduct(other, 0);
    const theirs = { productId, locationId, quantity: 3, reason: "received" };
    const key = `shared-${crypto.randomUUID()}`;
    expect((await adjust(key, mine)).status).toBe(201);
    const res = await adjust(key, theirs, other.admin);
    expect(res.status).toBe(201);
    expect(res.headers.get("idempotent-replayed")).toBeNull();
  });

  it("refuses a malformed key with 400", async () => {
    const body = { ...(await target()), quantity: 1, reason: "x" };
    expect((await adjust("has spaces in it", body)).status).toBe(400);
    expect((await adjust("k".repeat(256), body)).status).toBe(400);
  });

  it("expires after 24 hours: the key runs again, and the cron sweep deletes old records", async () => {
    const body = { ...(await target()), quantity: 1, reason: "received" };
    const key = crypto.randomUUID();
    await adjust(key, body);
    // A day passes.
    await (await tenantDatabase(tenant.id))
      .prepare("update idempotency_keys set expires_at = ? where tenant_id = ? and key = ?")
      .bind(new Date(Date.now() - 1000).toISOString(), tenant.id, key)
      .run();
    const again = await adjust(key, body);
    expect(again.headers.get("idempotent-replayed")).toBeNull();
    expect(await onHandOf(body.productId)).toBe(2);

    const stale = crypto.randomUUID();
    await adjust(stale, body);
    await (await tenantDatabase(tenant.id))
      .prepare("update idempotency_keys set expires_at = ? where key = ?")
      .bind(new Date(Date.now() - 1000).toISOString(), stale)
      .run();
    await runSweeps(env);
    const left = await (await tenantDatabase(tenant.id))
      .prepare("select count(*) as n from idempotency_keys where key = ?")
      .bind(stale)
      .first<{ n: number }>();
    expect(left?.n).toBe(0);
  });
});

describe("attack: a stored response hands a secret to another caller", () => {
  it("another key of the tenant replaying POST /api-keys gets 422, not the first caller's new key", async () => {
    const other = await scopedKey(tenant, ["admin"]);
    const key = crypto.randomUUID();
    const body = { name: "ci", scopes: ["read:orders"] };
    const first = await call("POST", "/api-keys", {
      headers: { ...tenant.admin, "idempotency-key": key },
      body,
    });
    expect(first.status).toBe(201);
    const secret = first.body.data.key as string;

    const stolen = await call("POST", "/api-keys", { headers: { ...other, "idempotency-key": key }, body });
    expect(JSON.stringify(stolen.body)).not.toContain(secret);
    expect(stolen.status).toBe(422);
    expect(stolen.body.errors).toEqual(["Idempotency-Key: already used by another API key or user"]);

    const mine = await call("POST", "/api-keys", {
      headers: { ...tenant.admin, "idempotency-key": key },
      body,
    });
    expect(mine.headers.get("idempotent-replayed")).toBe("true");
    expect(mine.body).toEqual(first.body);
  });

  it("stores no secret in plain: neither an API key nor a webhook signing secret", async () => {
    const key = crypto.randomUUID();
    const created = await call("POST", "/api-keys", {
      headers: { ...tenant.admin, "idempotency-key": key },
      body: { name: "stored", scopes: ["read:orders"] },
    });
    const hook = crypto.randomUUID();
    const webhook = await call("POST", "/webhooks", {
      headers: { ...tenant.admin, "idempotency-key": hook },
      body: { url: "https://hooks.example.com/wms", events: ["order.created"] },
    });
    expect(webhook.status).toBe(201);
    const rows = await (await tenantDatabase(tenant.id))
      .prepare("select * from idempotency_keys where key in (?, ?)")
      .bind(key, hook)
      .all();
    expect(rows.results).toHaveLength(2);
    const stored = JSON.stringify(rows.results);
    expect(stored).not.toContain(created.body.data.key);
    expect(stored).not.toContain(webhook.body.data.secret);
    expect(stored).not.toContain("whsec_");
  });

  it("a user's key is theirs alone: another member of the tenant replaying it gets 422", async () => {
    const [alice, bob] = [await userWithRole(tenant, "operator"), await userWithRole(tenant, "operator")];
    const body = { ...(await target()), quantity: 1, reason: "received" };
    const key = crypto.randomUUID();
    expect((await adjust(key, body, alice)).status).toBe(201);
    expect((await adjust(key, body, bob)).status).toBe(422);
    expect((await adjust(key, body, alice)).headers.get("idempotent-replayed")).toBe("true");
    expect(await onHandOf(body.productId)).toBe(1);
  });
});
