import { describe, expect, it } from "vitest";
import { createTenant, newMember, PLATFORM, scopedKey, type TestTenant } from "./support/builders";
import { call } from "./support/http";

// An API-key read runs on what the key's last lookup in this isolate said while this request's own lookup
// runs alongside (docs/decisions/scale-out.md). These tests warm that memory first, then change the key,
// its creator or its tenant, and check the very next request answers on the change.

const hopsOf = (response: { headers: Headers }) =>
  Number(/hops=(\d+)/.exec(response.headers.get("X-D1-Stats") ?? "")?.[1]);

const products = (headers: Record<string, string>) => call("GET", "/products?pageSize=20", { headers });

async function warm(headers: Record<string, string>, path = "/products?pageSize=20") {
  for (let i = 0; i < 2; i++) expect((await call("GET", path, { headers })).status).toBe(200);
}

/** A member with `role` and an API key they created (so the key is capped by their role). */
async function memberWithKey(tenant: TestTenant, role: string, scopes: string[]) {
  const member = await newMember(tenant, role);
  const key = await call("POST", "/api-keys", {
    headers: member.headers,
    body: { name: "member key", scopes },
  });
  expect(key.status).toBe(201);
  return { userId: member.id, key: { "x-api-key": key.body.data.key as string } };
}

describe("an API-key read", () => {
  it("costs one sequential round trip once the isolate has seen the key; a write costs the lookup and one batch", async () => {
    const tenant = await createTenant({ plan: "enterprise" });
    expect(hopsOf(await products(tenant.admin))).toBe(2);
    expect(hopsOf(await products(tenant.admin))).toBe(1);
    const created = await call("POST", "/products", {
      headers: tenant.admin,
      body: { sku: `HOP-${crypto.randomUUID()}`, name: "Hop" },
    });
    expect(created.status).toBe(201);
    expect(hopsOf(created)).toBe(2);
  });

  it("answers 401 on the very next request after the key is revoked", async () => {
    const tenant = await createTenant();
    const key = await scopedKey(tenant, ["read:products"]);
    await warm(key);
    const keys = await call("GET", "/api-keys?pageSize=100", { headers: tenant.admin });
    const id = keys.body.data.items.find((k) => key["x-api-key"]?.startsWith(k.prefix))?.id;
    expect((await call("DELETE", `/api-keys/${id}`, { headers: tenant.admin })).status).toBe(200);
    const after = await products(key);
    expect(after.status).toBe(401);
    expect(after.body.message).toContain("revoked");
  });

  it("answers 403 on the very next request after the key's creator is demoted", async () => {
    const tenant = await createTenant();
    const member = await memberWithKey(tenant, "admin", ["admin"]);
    await warm(member.key, "/api-keys");
    const demoted = await call("PUT", `/users/${member.userId}`, {
      headers: tenant.admin,
      body: { role: "viewer" },
    });
    expect(demoted.status).toBe(200);
    expect((await call("GET", "/api-keys", { headers: member.key })).status).toBe(403);
    // What the viewer role still allows keeps working.
    expect((await products(member.key)).status).toBe(200);
  });

  it("answers 401 on the very next request after the key's creator leaves the tenant", async () => {
    const tenant = await createTenant();
    const member = await memberWithKey(tenant, "admin", ["read:products"]);
    await warm(member.key);
    expect((await call("DELETE", `/users/${member.userId}`, { headers: tenant.admin })).status).toBe(200);
    expect((await products(member.key)).status).toBe(401);
  });

  it("answers 403 on the very next request after the tenant is suspended", async () => {
    const tenant = await createTenant();
    await warm(tenant.admin);
    const suspended = await call("PATCH", `/platform/tenants/${tenant.id}`, {
      headers: PLATFORM,
      body: { status: "suspended" },
    });
    expect(suspended.status).toBe(200);
    const after = await products(tenant.admin);
    expect(after.status).toBe(403);
    expect(after.body.message).toContain("suspended");
  });

  it("counts the very next request under the new plan after a plan change", async () => {
    const tenant = await createTenant({ plan: "enterprise" });
    await warm(tenant.admin);
    expect((await products(tenant.admin)).headers.get("X-RateLimit-Limit")).toBeNull();
    const changed = await call("PATCH", `/platform/tenants/${tenant.id}`, {
      headers: PLATFORM,
      body: { plan: "starter" },
    });
    expect(changed.status).toBe(200);
    expect((await products(tenant.admin)).headers.get("X-RateLimit-Limit")).toBe("60");
  });
});
