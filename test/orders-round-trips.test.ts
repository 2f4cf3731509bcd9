import { describe, expect, it } from "vitest";
import { createTenant, newMember, salesOrder, stockedProduct, type TestTenant } from "./support/builders";
import { openReservations, outboxTypes, stockOf } from "./support/database";
import { call } from "./support/http";

// A sales order with an API key this isolate has seen reads alongside the key's lookup and writes after it:
// two sequential round trips, the anchor's count (docs/decisions/orders.md). The write never runs on a view
// the lookup did not confirm: a revoked key or a lost scope writes nothing, a changed view is served again.

const statsOf = (response: { headers: Headers }) => response.headers.get("X-D1-Stats") ?? "";
const hopsOf = (response: { headers: Headers }) => Number(/hops=(\d+)/.exec(statsOf(response))?.[1]);

/** A member with `role` and an API key they created holding `scopes` (capped by the role). */
async function memberWithKey(tenant: TestTenant, role: string, scopes: string[]) {
  const member = await newMember(tenant, role);
  const key = await call("POST", "/api-keys", { headers: member.headers, body: { name: "orders", scopes } });
  expect(key.status).toBe(201);
  return { userId: member.id, key: { "x-api-key": key.body.data.key as string } };
}

const ordersOf = async (tenant: TestTenant) =>
  (await call("GET", "/orders?type=sales&pageSize=100", { headers: tenant.admin })).body.data.items.length;

describe("a sales order's round trips", () => {
  it("costs three with a key this isolate has not seen, then two: reads alongside the lookup, then the write", async () => {
    const tenant = await createTenant({ plan: "enterprise" });
    const { productId } = await stockedProduct(tenant, 10);
    const fresh = await memberWithKey(tenant, "admin", ["read:orders", "write:orders"]);
    const first = await salesOrder(tenant, [{ productId, quantity: 1 }], {}, fresh.key);
    expect(first.status).toBe(201);
    expect(hopsOf(first)).toBe(3);
    const next = await salesOrder(tenant, [{ productId, quantity: 2 }], {}, fresh.key);
    expect(next.status).toBe(201);
    expect(statsOf(next)).toMatch(/^calls=3; .*hops=2$/);
    expect(next.body.data).toMatchObject({ number: "SO-000002", totals: { quantity: 2 } });
    expect(await stockOf(tenant, productId)).toMatchObject([{ onHand: 10, reserved: 3 }]);
  });

  it("writes nothing when the key was revoked since the isolate saw it: 401", async () => {
    const tenant = await createTenant();
    const { productId } = await stockedProduct(tenant, 10);
    const member = await memberWithKey(tenant, "admin", ["write:orders"]);
    expect((await salesOrder(tenant, [{ productId, quantity: 1 }], {}, member.key)).status).toBe(201);
    const keys = await call("GET", "/api-keys?pageSize=100", { headers: tenant.admin });
    const id = keys.body.data.items.find((k: { prefix: string }) =>
      member.key["x-api-key"]?.startsWith(k.prefix),
    )?.id;
    expect((await call("DELETE", `/api-keys/${id}`, { headers: tenant.admin })).status).toBe(200);
    const refused = await salesOrder(tenant, [{ productId, quantity: 4 }], {}, member.key);
    expect(refused.status).toBe(401);
    expect(refused.body.message).toContain("revoked");
    expect(await ordersOf(tenant)).toBe(1);
    expect(await stockOf(tenant, productId)).toMatchObject([{ onHand: 10, reserved: 1 }]);
    expect(await outboxTypes(tenant)).toEqual(["order.created"]);
  });

  it("writes nothing when the key's creator lost write:orders since: 403", async () => {
    const tenant = await createTenant();
    const { productId } = await stockedProduct(tenant, 10);
    // The admin's key for write:orders alone: demoted to viewer, it is capped to read:orders.
    const member = await memberWithKey(tenant, "admin", ["write:orders"]);
    expect((await salesOrder(tenant, [{ productId, quantity: 1 }], {}, member.key)).status).toBe(201);
    const demoted = await call("PUT", `/users/${member.userId}`, {
      headers: tenant.admin,
      body: { role: "viewer" },
    });
    expect(demoted.status).toBe(200);
    const refused = await salesOrder(tenant, [{ productId, quantity: 4 }], {}, member.key);
    expect(refused.status).toBe(403);
    expect(await ordersOf(tenant)).toBe(1);
    expect(await stockOf(tenant, productId)).toMatchObject([{ onHand: 10, reserved: 1 }]);
  });

  it("is served again, body and all, when the key's view changed but still allows the order", async () => {
    const tenant = await createTenant();
    const { productId } = await stockedProduct(tenant, 10);
    // An admin's key asking for admin holds admin; demoted to operator it holds the operator's scopes.
    const member = await memberWithKey(tenant, "admin", ["admin"]);
    expect((await salesOrder(tenant, [{ productId, quantity: 1 }], {}, member.key)).status).toBe(201);
    const demoted = await call("PUT", `/users/${member.userId}`, {
      headers: tenant.admin,
      body: { role: "operator" },
    });
    expect(demoted.status).toBe(200);
    const again = await salesOrder(tenant, [{ productId, quantity: 4, price: 2.5 }], {}, member.key);
    expect(again.status).toBe(201);
    expect(again.body.data).toMatchObject({ number: "SO-000002", totals: { quantity: 4, total: 10 } });
    expect(await ordersOf(tenant)).toBe(2);
    expect(await stockOf(tenant, productId)).toMatchObject([{ onHand: 10, reserved: 5 }]);
    // The view is remembered anew: the next order is two round trips again.
    const next = await salesOrder(tenant, [{ productId, quantity: 1 }], {}, member.key);
    expect(hopsOf(next)).toBe(2);
  });

  it("a status change costs two with a key this isolate has seen, and writes nothing for a revoked key", async () => {
    const tenant = await createTenant({ plan: "enterprise" });
    const { productId } = await stockedProduct(tenant, 10);
    const member = await memberWithKey(tenant, "admin", ["write:orders"]);
    const order = await salesOrder(tenant, [{ productId, quantity: 2 }], {}, member.key);
    const status = (to: string) =>
      call("PATCH", `/orders/${order.body.data.id}/status`, { headers: member.key, body: { status: to } });
    const confirmed = await status("confirmed");
    expect(confirmed.status).toBe(200);
    expect(hopsOf(confirmed)).toBe(2);
    const keys = await call("GET", "/api-keys?pageSize=100", { headers: tenant.admin });
    const id = keys.body.data.items.find((k: { prefix: string }) =>
      member.key["x-api-key"]?.startsWith(k.prefix),
    )?.id;
    expect((await call("DELETE", `/api-keys/${id}`, { headers: tenant.admin })).status).toBe(200);
    expect((await status("cancelled")).status).toBe(401);
    const after = await call("GET", `/orders/${order.body.data.id}`, { headers: tenant.admin });
    expect(after.body.data).toMatchObject({ status: "confirmed" });
    expect(await stockOf(tenant, productId)).toMatchObject([{ onHand: 10, reserved: 2 }]);
  });

  it("never oversells under concurrent orders on a remembered key: 30 orders for 20 units", async () => {
    const tenant = await createTenant({ plan: "enterprise" });
    const { productId } = await stockedProduct(tenant, 21);
    expect((await salesOrder(tenant, [{ productId, quantity: 1 }])).status).toBe(201);
    const results = await Promise.all(
      Array.from({ length: 30 }, () => salesOrder(tenant, [{ productId, quantity: 1 }])),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(20);
    expect(statuses.filter((s) => s === 409)).toHaveLength(10);
    expect(await stockOf(tenant, productId)).toMatchObject([{ onHand: 21, reserved: 21 }]);
    expect(await openReservations(tenant, productId)).toBe(21);
  });
});
