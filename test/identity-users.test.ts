import { beforeAll, describe, expect, it } from "vitest";
import { createTenant, loginHeaders, scopedKey, type TestTenant, unique } from "./support/builders";
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
  it("adds a new account with a role, who can then log in and act", async () => {
    const address = email();
    const res = await addUser({ email: address, name: "Mia", password: "mia-password-1", role: "viewer" });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ email: address, name: "Mia", role: "viewer" });
    const headers = await loginHeaders(tenant, address, "mia-password-1");
    expect((await call("GET", "/orders", { headers })).status).toBe(200);
    const got = await call("GET", `/users/${res.body.data.id}`, { headers: tenant.admin });
    expect(got.body.data).toEqual(res.body.data);
  });

  it("joins an existing account by email (no password needed) and refuses a second join", async () => {
    const other = await createTenant();
    const joined = await addUser({ email: other.owner.email.toUpperCase(), role: "operator" });
    expect(joined.status).toBe(201);
    expect(joined.body.data.id).toBe(other.owner.id);
    const again = await addUser({ email: other.owner.email, role: "viewer" });
    expect(again.status).toBe(409);
    // The account's password is unchanged: it still logs in with its own.
    await loginHeaders(tenant, other.owner.email, other.owner.password);
  });

  it("needs a name and password for a new account, a valid role and a long enough password", async () => {
    const res = await addUser({ email: email(), role: "viewer" });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([
      "name: is required for a new user",
      "password: is required for a new user",
    ]);
    const bad = await addUser({ email: "x", name: "X", password: "short", role: "king" });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toHaveLength(3);
  });

  it("changes roles and lists members", async () => {
    const { id } = (
      await addUser({ email: email(), name: "Ola", password: "ola-password-1", role: "viewer" })
    ).body.data;
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

    const coOwner = { email: email(), password: "co-owner-pass" };
    const second = (
      await call("POST", "/users", {
        headers: t.admin,
        body: { ...coOwner, name: "Co-owner", role: "owner" },
      })
    ).body.data;
    const results = await Promise.all(
      [t.owner.id, second.id].map((id) =>
        call("PUT", `/users/${id}`, { headers: t.admin, body: { role: "viewer" } }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    // The admin key acts with its creator's rights, which the demotion may have taken: ask the one left.
    const left = results[0]!.status === 200 ? coOwner : t.owner;
    const headers = await loginHeaders(t, left.email, left.password);
    const members = (await call("GET", "/users?pageSize=100", { headers })).body.data.items;
    expect(members.filter((member: { role: string }) => member.role === "owner")).toHaveLength(1);
  });

  it("stores passwords only hashed", async () => {
    const address = email();
    await addUser({ email: address, name: "Hash", password: "plain-text-secret-9", role: "viewer" });
    const row = await platformDatabase().prepare("select * from users where email = ?").bind(address).first();
    expect(JSON.stringify(row)).not.toContain("plain-text-secret-9");
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
    const managerEmail = email();
    await addUser({ email: managerEmail, name: "Man", password: "manager-pass-1", role: "manager" });
    const manager = await loginHeaders(tenant, managerEmail, "manager-pass-1");
    const res = await call("POST", "/api-keys", { headers: manager, body: { name: "x", scopes: ["admin"] } });
    expect(res.status).toBe(403);
  });
});
