import { beforeAll, describe, expect, it } from "vitest";
import { createTenant, scopedKey, type TestTenant, userWithRole, whoAmI } from "./support/builders";
import { platformDatabase } from "./support/database";
import { call } from "./support/http";

let tenant: TestTenant;
beforeAll(async () => {
  tenant = await createTenant();
});

const me = (headers: Record<string, string>, ip?: string) =>
  call("GET", "/auth/me", { headers: { ...headers, ...(ip ? { "cf-connecting-ip": ip } : {}) } });

async function createKey(body: Record<string, unknown>) {
  return call("POST", "/api-keys", { headers: tenant.admin, body: { name: "integration", ...body } });
}

describe("API keys", () => {
  it("are shown once at creation, never in lists, and stored only as a hash", async () => {
    const created = await createKey({ scopes: ["read:products"] });
    expect(created.status).toBe(201);
    const { key, id, prefix } = created.body.data;
    expect(key).toMatch(/^wms_test_[0-9A-Za-z]{40}$/);
    expect(key.startsWith(prefix)).toBe(true);
    expect(created.headers.get("location")).toBe(`/api/v1/api-keys/${id}`);

    const list = await call("GET", "/api-keys?pageSize=100", { headers: tenant.admin });
    expect(list.status).toBe(200);
    expect(list.body.data.items.some((k: { id: string }) => k.id === id)).toBe(true);
    expect(JSON.stringify(list.body)).not.toContain(key);
    expect(list.body.data.items.every((k: object) => !("key" in k) && !("keyHash" in k))).toBe(true);

    const rows = await platformDatabase().prepare("select * from api_keys").all();
    expect(JSON.stringify(rows.results)).not.toContain(key);
  });

  it("work as X-API-Key and as Bearer, and identify their tenant and scopes", async () => {
    const { key } = (await createKey({ scopes: ["read:orders", "write:inventory"] })).body.data;
    const credentials: Record<string, string>[] = [{ "x-api-key": key }, { authorization: `Bearer ${key}` }];
    for (const headers of credentials) {
      const res = await me(headers);
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({
        type: "api_key",
        tenant: { id: tenant.id },
        apiKey: { scopes: ["read:orders", "write:inventory"] },
      });
    }
  });

  it("stop working on the request right after revocation", async () => {
    const { key, id } = (await createKey({ scopes: ["read:orders"] })).body.data;
    expect((await me({ "x-api-key": key })).status).toBe(200);
    const revoked = await call("DELETE", `/api-keys/${id}`, { headers: tenant.admin });
    expect(revoked.status).toBe(200);
    expect(revoked.body.data.revokedAt).toEqual(expect.any(String));
    const after = await me({ "x-api-key": key });
    expect(after.status).toBe(401);
    expect(after.headers.get("www-authenticate")).toMatch(/^Bearer/);
  });

  it("refuse an unknown or malformed key with 401", async () => {
    expect((await me({ "x-api-key": "wms_test_doesnotexist" })).status).toBe(401);
    expect((await me({ "x-api-key": "garbage" })).status).toBe(401);
  });

  it("expire at their expiry", async () => {
    const { key, id } = (
      await createKey({ scopes: ["read:orders"], expiresAt: new Date(Date.now() + 60_000).toISOString() })
    ).body.data;
    expect((await me({ "x-api-key": key })).status).toBe(200);
    // The expiry passes.
    await platformDatabase()
      .prepare("update api_keys set expires_at = ? where id = ?")
      .bind(new Date(Date.now() - 1000).toISOString(), id)
      .run();
    expect((await me({ "x-api-key": key })).status).toBe(401);
    const past = await createKey({ scopes: ["read:orders"], expiresAt: "2020-01-01T00:00:00Z" });
    expect(past.status).toBe(400);
    expect(past.body.errors).toEqual(["expiresAt: must be in the future"]);
  });

  it("enforce their IP allow list for IPv4 and IPv6", async () => {
    const headers = await scopedKey(tenant, ["read:orders"], {
      allowedIps: ["203.0.113.0/24", "2001:db8::/32"],
    });
    expect((await me(headers, "203.0.113.42")).status).toBe(200);
    expect((await me(headers, "::ffff:203.0.113.42")).status).toBe(200);
    expect((await me(headers, "2001:db8:1::7")).status).toBe(200);
    const outside = await me(headers, "198.51.100.1");
    expect(outside.status).toBe(403);
    expect(outside.body.message).toMatch(/allow list/);
    expect((await me(headers, "2001:db9::1")).status).toBe(403);
    expect((await me(headers)).status).toBe(403);
    const bad = await createKey({ scopes: ["read:orders"], allowedIps: ["300.1.1.1/8"] });
    expect(bad.status).toBe(400);
    expect(bad.body.errors?.[0]).toMatch(/^allowedIps\[0\]: /);
  });

  it("refuse IPv4 spellings that software reads differently, and store IPv6 and ranges canonically", async () => {
    // 010.000.000.001 was stored as typed and matched 8.0.0.1 (octal), not the 10.0.0.1 a person meant.
    for (const ambiguous of ["010.000.000.001", "10.1", "0x0a.0.0.1", "167772161", "::ffff:010.0.0.1"]) {
      const res = await createKey({ scopes: ["read:orders"], allowedIps: ["203.0.113.0/24", ambiguous] });
      expect(res.status, ambiguous).toBe(400);
      expect(res.body.errors, ambiguous).toEqual([
        expect.stringMatching(/^allowedIps\[1\]: must write IPv4 as four decimal numbers .* \(10\.0\.0\.1\)/),
      ]);
    }
    const hostBits = await createKey({ scopes: ["read:orders"], allowedIps: ["10.0.0.1/24"] });
    expect(hostBits.status).toBe(400);
    expect(hostBits.body.errors).toEqual([
      "allowedIps[0]: has bits set past its /24 prefix: write 10.0.0.0/24 for the range, or 10.0.0.1/32 for the one address",
    ]);
    const zone = await createKey({ scopes: ["read:orders"], allowedIps: ["fe80::1%eth0"] });
    expect(zone.body.errors).toEqual(["allowedIps[0]: must not carry an IPv6 zone index (%eth0)"]);

    const created = await createKey({
      scopes: ["read:orders"],
      allowedIps: ["2001:DB8:0:0::/64", "::ffff:198.51.100.7", "10.0.0.1"],
    });
    expect(created.status).toBe(201);
    expect(created.body.data.allowedIps).toEqual(["2001:db8::/64", "198.51.100.7", "10.0.0.1"]);
    const headers = { "x-api-key": created.body.data.key };
    expect((await me(headers, "10.0.0.1")).status).toBe(200);
    expect((await me(headers, "198.51.100.7")).status).toBe(200);
    expect((await me(headers, "2001:db8::42")).status).toBe(200);
    expect((await me(headers, "8.0.0.1")).status).toBe(403);
  });

  it("admit nobody through an ambiguous entry stored before entries were checked", async () => {
    const { id, key } = (await createKey({ scopes: ["read:orders"], allowedIps: ["10.0.0.1"] })).body.data;
    await platformDatabase()
      .prepare("update api_keys set allowed_ips = ? where id = ?")
      .bind(JSON.stringify(["010.000.000.001"]), id)
      .run();
    expect((await me({ "x-api-key": key }, "8.0.0.1")).status).toBe(403);
    expect((await me({ "x-api-key": key }, "10.0.0.1")).status).toBe(403);
  });

  it("record lastUsedAt, writing it at most once a minute", async () => {
    const { key, id } = (await createKey({ scopes: ["read:orders"] })).body.data;
    await me({ "x-api-key": key });
    const lastUsed = async () =>
      (await call("GET", "/api-keys?pageSize=100", { headers: tenant.admin })).body.data.items.find(
        (listed: { id: string }) => listed.id === id,
      )?.lastUsedAt;
    await expect.poll(lastUsed).toEqual(expect.any(String));
    const first = await lastUsed();
    await me({ "x-api-key": key });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await lastUsed()).toBe(first);
  });

  it("validate scopes and names", async () => {
    const res = await createKey({ name: "", scopes: ["write:everything"] });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual(
      expect.arrayContaining([expect.stringMatching(/^name: /), expect.stringMatching(/^scopes\[0\]: /)]),
    );
  });

  it("are admin-only, and another tenant's key is 404", async () => {
    const reader = await scopedKey(tenant, ["read:orders"]);
    expect((await call("GET", "/api-keys", { headers: reader })).status).toBe(403);
    expect((await call("GET", "/api-keys")).status).toBe(401);
    const other = await createTenant();
    const { id } = (await createKey({ scopes: ["read:orders"] })).body.data;
    expect((await call("DELETE", `/api-keys/${id}`, { headers: other.admin })).status).toBe(404);
    expect((await call("DELETE", "/api-keys/not-a-uuid", { headers: tenant.admin })).status).toBe(400);
  });
});

describe("an API key's rights follow its creator's current role", () => {
  async function adminWithKey(t: TestTenant) {
    const jwt = await userWithRole(t, "admin");
    const { id: userId, email } = (await whoAmI(jwt, "user")).user;
    const created = await call("POST", "/api-keys", {
      headers: jwt,
      body: { name: "ops", scopes: ["admin"] },
    });
    expect(created.status).toBe(201);
    return { userId, email, jwt, key: { "x-api-key": created.body.data.key as string } };
  }

  it("attack: a removed admin's key neither works nor can re-add its creator as owner", async () => {
    const t = await createTenant();
    const { userId, email, key } = await adminWithKey(t);
    expect((await call("DELETE", `/users/${userId}`, { headers: t.admin })).status).toBe(200);

    const rejoin = await call("POST", "/users", { headers: key, body: { email, role: "owner" } });
    expect(rejoin.status).toBe(401);
    expect((await me(key)).status).toBe(401);
    expect((await call("GET", "/products", { headers: key })).status).toBe(401);
  });

  it("a demoted creator's key keeps only what the new role grants", async () => {
    const t = await createTenant();
    const { userId, key } = await adminWithKey(t);
    const demoted = await call("PUT", `/users/${userId}`, { headers: t.admin, body: { role: "viewer" } });
    expect(demoted.status).toBe(200);

    expect((await call("GET", "/api-keys", { headers: key })).status).toBe(403);
    expect((await call("POST", "/products", { headers: key, body: { sku: "S", name: "N" } })).status).toBe(
      403,
    );
    expect((await call("GET", "/products", { headers: key })).status).toBe(200);
    expect((await whoAmI(key, "api_key")).apiKey.scopes).toEqual([
      "read:products",
      "read:inventory",
      "read:orders",
    ]);

    // Promoted again, the key has its own scopes back: the cap is the creator's role now, not a copy.
    await call("PUT", `/users/${userId}`, { headers: t.admin, body: { role: "admin" } });
    expect((await call("GET", "/api-keys", { headers: key })).status).toBe(200);
  });

  it("a write scope capped by a reading creator still reads", async () => {
    const t = await createTenant();
    const { userId, jwt } = await adminWithKey(t);
    const writer = await call("POST", "/api-keys", {
      headers: jwt,
      body: { name: "writer", scopes: ["write:products", "read:orders"] },
    });
    await call("PUT", `/users/${userId}`, { headers: t.admin, body: { role: "operator" } });
    const key = { "x-api-key": writer.body.data.key };
    expect((await whoAmI(key, "api_key")).apiKey.scopes).toEqual(["read:products", "read:orders"]);
  });
});
