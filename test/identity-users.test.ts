import { beforeAll, describe, expect, it } from "vitest";
import {
  createTenant,
  loginHeaders,
  newMember,
  scopedKey,
  type TestTenant,
  unique,
  userWithRole,
} from "./support/builders";
import { platformDatabase } from "./support/database";
import { call } from "./support/http";

let tenant: TestTenant;
beforeAll(async () => {
  tenant = await createTenant();
});

const email = () => `member-${unique()}@example.com`;

const addUser = (body: Record<string, unknown>, headers = tenant.admin) =>
  call("POST", "/users", { headers, body });

describe("users of a tenant", () => {
  it("joins by invitation: the person sets their own password and can then act with the role", async () => {
    const member = await newMember(tenant, "viewer");
    expect((await call("GET", "/orders", { headers: member.headers })).status).toBe(200);
    expect((await call("POST", "/orders/sales", { headers: member.headers, body: {} })).status).toBe(403);
    const got = await call("GET", `/users/${member.id}`, { headers: tenant.admin });
    expect(got.body.data).toMatchObject({
      id: member.id,
      email: member.email,
      name: "A viewer",
      role: "viewer",
    });
    await loginHeaders(tenant, member.email, member.password);
  });

  it("validates an invitation: a valid email and role, nothing else (no password, no name)", async () => {
    const bad = await addUser({ email: "x", role: "king" });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toHaveLength(2);
    const withPassword = await addUser({
      email: email(),
      name: "X",
      password: "chosen-by-admin",
      role: "viewer",
    });
    expect(withPassword.status).toBe(400);
  });

  it("changes roles and lists members", async () => {
    const { id } = await newMember(tenant, "viewer");
    const changed = await call("PUT", `/users/${id}`, { headers: tenant.admin, body: { role: "manager" } });
    expect(changed.status).toBe(200);
    expect(changed.body.data.role).toBe("manager");
    const list = await call("GET", "/users?pageSize=100", { headers: tenant.admin });
    expect(list.body.data.items).toEqual(
      expect.arrayContaining([expect.objectContaining({ id, role: "manager" })]),
    );
    expect(JSON.stringify(list.body)).not.toMatch(/password/i);
  });

  it("never lets the last owner be removed or demoted, even by two concurrent requests", async () => {
    const t = await createTenant();
    const demote = await call("PUT", `/users/${t.owner.id}`, { headers: t.admin, body: { role: "admin" } });
    expect(demote.status).toBe(409);
    const remove = await call("DELETE", `/users/${t.owner.id}`, { headers: t.admin });
    expect(remove.status).toBe(409);

    const second = await newMember(t, "owner");
    const results = await Promise.all(
      [t.owner.id, second.id].map((id) =>
        call("PUT", `/users/${id}`, { headers: t.admin, body: { role: "viewer" } }),
      ),
    );
    // The loser is refused as the last owner (409), or, when the owner demoted themself first, as no owner (403).
    const [won, lost] = results.map((r) => r.status).sort();
    expect(won).toBe(200);
    expect([403, 409]).toContain(lost);
    const owners = await platformDatabase()
      .prepare("select count(*) as n from memberships where tenant_id = ? and role = 'owner'")
      .bind(t.id)
      .first<{ n: number }>();
    expect(owners?.n).toBe(1);
  });

  it("stores passwords only hashed", async () => {
    const member = await newMember(tenant, "viewer");
    const row = await platformDatabase()
      .prepare("select * from users where email = ?")
      .bind(member.email)
      .first();
    expect(JSON.stringify(row)).not.toContain(member.password);
  });

  it("is admin only; other tenants' users are 404", async () => {
    expect((await call("GET", "/users")).status).toBe(401);
    const manager = await scopedKey(tenant, ["write:orders", "write:inventory", "write:products"]);
    expect((await call("GET", "/users", { headers: manager })).status).toBe(403);
    const other = await createTenant();
    expect((await call("GET", `/users/${other.owner.id}`, { headers: tenant.admin })).status).toBe(404);
    expect((await call("DELETE", `/users/${other.owner.id}`, { headers: tenant.admin })).status).toBe(404);
    expect(
      (await call("PUT", `/users/${other.owner.id}`, { headers: tenant.admin, body: { role: "viewer" } }))
        .status,
    ).toBe(404);
  });

  it("a key cannot be created with a scope its creator lacks", async () => {
    // An admin key holds every scope; a manager's JWT holds no admin scope and so cannot create keys at all.
    const manager = await userWithRole(tenant, "manager");
    const res = await call("POST", "/api-keys", { headers: manager, body: { name: "x", scopes: ["admin"] } });
    expect(res.status).toBe(403);
  });
});
