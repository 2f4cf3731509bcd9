import { assert, beforeAll, describe, expect, it } from "vitest";
import {
  createTenant,
  loginHeaders,
  newMember,
  PLATFORM,
  scopedKey,
  type TestTenant,
  unique,
} from "./support/builders";
import { platformDatabase } from "./support/database";
import { bearer, call } from "./support/http";
import { mailCount, mailTo, tokenIn } from "./support/mail";

let tenant: TestTenant;
beforeAll(async () => {
  tenant = await createTenant({ name: "Acme Storage" });
});

const email = () => `invitee-${unique()}@example.com`;

const invite = (body: Record<string, unknown>, headers = tenant.admin) =>
  call("POST", "/users", { headers, body });
const inspect = (token: string) => call("POST", "/auth/invitations/inspect", { body: { token } });
const accept = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  call("POST", "/auth/invitations/accept", { headers, body });
const login = (address: string, password: string) =>
  call("POST", "/auth/login", { body: { email: address, password } });

/** Invites `address` and returns the answer and the token from the mail that went to it. */
async function invited(address: string, role = "operator", headers = tenant.admin) {
  const before = mailCount(address);
  const res = await invite({ email: address, role }, headers);
  expect(res.status).toBe(202);
  return { res, token: tokenIn(await mailTo(address, before)) };
}

describe("attack: an admin takes over another tenant's owner through a shared account", () => {
  it("an admin cannot give an email a password; the real person owns the tenant created for them", async () => {
    const ceo = email();
    // Tenant A's admin tries to pre-create the account with a password of their choosing.
    const preCreated = await invite({
      email: ceo,
      name: "CEO",
      password: "attacker-chose-this",
      role: "viewer",
    });
    await invite({ email: ceo, role: "viewer" });

    const bigCorp = await call("POST", "/platform/tenants", {
      headers: PLATFORM,
      body: {
        name: "BigCorp",
        plan: "business",
        owner: { email: ceo, password: "the-ceos-own-pw", name: "CEO" },
      },
    });
    expect(bigCorp.status).toBe(201);

    expect((await login(ceo, "attacker-chose-this")).status).toBe(401);
    const real = await login(ceo, "the-ceos-own-pw");
    expect(real.status).toBe(200);
    expect(real.body.data.user.memberships).toEqual([
      { tenantId: bigCorp.body.data.tenant.id, tenantName: "BigCorp", role: "owner", merchantId: null },
    ]);
    expect(preCreated.status).toBe(400);
  });

  it("creating a tenant for an existing account invites it as owner, changing nothing of the account", async () => {
    const person = await newMember(tenant, "viewer");
    const res = await call("POST", "/platform/tenants", {
      headers: PLATFORM,
      body: {
        name: "Their Own Co",
        plan: "starter",
        owner: { email: person.email, password: "operator-pw-123", name: "Renamed" },
      },
    });
    expect(res.status).toBe(201);
    const created = res.body.data;
    expect(created.owner).toBeNull();
    expect(created.apiKey).toBeNull();
    expect(created.ownerInvitation).toMatchObject({ email: person.email, role: "owner", status: "pending" });
    expect(created.ownerInvitation?.invitedBy).toEqual({ type: "platform", id: null });

    // The operator's password and name were not applied; until acceptance nobody is in the tenant.
    expect((await login(person.email, "operator-pw-123")).status).toBe(401);
    const session = await login(person.email, person.password);
    expect(session.body.data.user.name).toBe("A viewer");
    expect(session.body.data.user.memberships.map((m: { tenantId: string }) => m.tenantId)).toEqual([
      tenant.id,
    ]);

    const mail = await mailTo(person.email);
    expect(mail.subject).toBe("You are invited to Their Own Co");
    const joined = await accept({ token: tokenIn(mail) }, bearer(session.body.data.token));
    expect(joined.status).toBe(200);
    expect(joined.body.data).toEqual({ tenantId: created.tenant.id, role: "owner", merchantId: null });
    const owner = bearer(session.body.data.token, created.tenant.id);
    expect((await call("GET", "/users", { headers: owner })).status).toBe(200);
    const key = await call("POST", "/api-keys", {
      headers: owner,
      body: { name: "first", scopes: ["admin"] },
    });
    expect(key.status).toBe(201);
  });

  it("inviting an email that has an account reveals nothing: the same answer as for an unknown email", async () => {
    const other = await createTenant();
    const known = (await invite({ email: other.owner.email, role: "viewer" })).body;
    const unknown = (await invite({ email: email(), role: "viewer" })).body;
    const shape = (body: typeof known) => ({
      ...body,
      data: { ...body.data, id: "-", email: "-", expiresAt: "-", createdAt: "-" },
    });
    expect(shape(known)).toEqual(shape(unknown));
    expect(JSON.stringify(known)).not.toContain("Owner");
    expect(JSON.stringify(known)).not.toContain(other.owner.id);
  });
});

describe("invitations", () => {
  it("a new person: the mail's link, inspect, accept with their own password, signed in with the role", async () => {
    const address = email();
    const res = await invite({ email: address.toUpperCase(), role: "manager" });
    expect(res.status).toBe(202);
    const token = tokenIn(await mailTo(address));
    expect(res.body.data).toMatchObject({ email: address, role: "manager", status: "pending" });
    expect(res.body.data.invitedBy).toEqual({ type: "api_key", id: expect.any(String) });
    expect(Date.parse(res.body.data.expiresAt) - Date.parse(res.body.data.createdAt)).toBe(7 * 24 * 3600_000);

    const mail = await mailTo(address);
    expect(mail.link).toBe(`http://localhost/app/accept-invitation?token=${encodeURIComponent(token)}`);
    expect(mail.text).toContain(mail.link);
    expect(mail.subject).toBe("You are invited to Acme Storage");

    const preview = await inspect(token);
    expect(preview.status).toBe(200);
    expect(preview.body.data).toEqual({
      email: address,
      tenantName: "Acme Storage",
      role: "manager",
      merchantId: null,
      expiresAt: res.body.data.expiresAt,
      accountExists: false,
    });

    const missing = await accept({ token });
    expect(missing.status).toBe(400);
    expect(missing.body.errors).toEqual([
      "name: is required for a new account",
      "password: is required for a new account",
    ]);
    const short = await accept({ token, password: "short", name: "Nia" });
    expect(short.status).toBe(400);

    const done = await accept({ token, password: "nia-password-1", name: "Nia" });
    expect(done.status).toBe(200);
    const session = done.body.data;
    assert("user" in session, "a new person is signed in");
    expect(session.user).toMatchObject({
      email: address,
      name: "Nia",
      memberships: [{ tenantId: tenant.id, tenantName: "Acme Storage", role: "manager" }],
    });
    const headers = bearer(session.token, tenant.id);
    expect(
      (await call("POST", "/products", { headers, body: { sku: `N-${unique()}`, name: "N" } })).status,
    ).toBe(201);
    expect((await login(address, "nia-password-1")).status).toBe(200);

    // One time only.
    expect((await accept({ token, password: "other-password-1", name: "Eve" })).status).toBe(404);
    expect((await inspect(token)).status).toBe(404);
    const list = await call("GET", "/users/invitations?status=accepted&pageSize=100", {
      headers: tenant.admin,
    });
    expect(list.body.data.items).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: res.body.data.id, status: "accepted" })]),
    );
  });

  it("an existing account: signs in and accepts with the token only, as the invited email", async () => {
    const person = await newMember(await createTenant(), "viewer");
    const { token } = await invited(person.email, "admin");
    const mail = await mailTo(person.email);
    expect(mail.text).toContain(`Sign in as ${person.email}`);
    expect((await inspect(token)).body.data.accountExists).toBe(true);

    expect((await accept({ token })).status).toBe(401);
    const stranger = await newMember(tenant, "viewer");
    const wrong = await accept({ token }, { authorization: stranger.headers.authorization });
    expect(wrong.status).toBe(403);
    const session = (await login(person.email, person.password)).body.data.token;
    const withPassword = await accept(
      { token, password: "new-password-1", name: "Mallory" },
      bearer(session),
    );
    expect(withPassword.status).toBe(400);
    expect((await accept({ token }, tenant.admin)).status).toBe(401);

    const joined = await accept({ token }, bearer(session));
    expect(joined.status).toBe(200);
    expect(joined.body.data).toEqual({ tenantId: tenant.id, role: "admin", merchantId: null });
    const again = await login(person.email, person.password);
    expect(again.body.data.user.name).toBe("A viewer");
    expect((await call("GET", "/users", { headers: bearer(session, tenant.id) })).status).toBe(200);
  });

  it("two concurrent accepts of one token: exactly one account, one membership", async () => {
    const address = email();
    const { token } = await invited(address);
    const results = await Promise.all(
      ["first-password-1", "second-password-2"].map((password) => accept({ token, password, name: "Twin" })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 404]);
    const users = await platformDatabase()
      .prepare("select count(*) as n from users where email = ?")
      .bind(address)
      .first();
    expect(users?.n).toBe(1);
  });

  it("inviting again replaces the pending invitation; revoking stops the link; an expired link is dead", async () => {
    const address = email();
    const first = await invited(address, "viewer");
    const second = await invited(address, "manager");
    expect((await inspect(first.token)).status).toBe(404);
    expect((await inspect(second.token)).body.data.role).toBe("manager");
    const revokedList = await call("GET", "/users/invitations?status=revoked&pageSize=100", {
      headers: tenant.admin,
    });
    expect(revokedList.body.data.items.map((i: { id: string }) => i.id)).toContain(first.res.body.data.id);

    const revoked = await call("DELETE", `/users/invitations/${second.res.body.data.id}`, {
      headers: tenant.admin,
    });
    expect(revoked.status).toBe(200);
    expect(revoked.body.data).toMatchObject({ status: "revoked", revokedAt: expect.any(String) });
    expect((await accept({ token: second.token, password: "pw-after-revoke", name: "Late" })).status).toBe(
      404,
    );
    const twice = await call("DELETE", `/users/invitations/${second.res.body.data.id}`, {
      headers: tenant.admin,
    });
    expect(twice.body.data.revokedAt).toBe(revoked.body.data.revokedAt);

    const third = await invited(address);
    await platformDatabase()
      .prepare("update invitations set expires_at = ? where id = ?")
      .bind(new Date(Date.now() - 1000).toISOString(), third.res.body.data.id)
      .run();
    expect((await inspect(third.token)).status).toBe(404);
    const expired = await call("GET", "/users/invitations?status=expired", { headers: tenant.admin });
    expect(expired.body.data.items.map((i: { id: string }) => i.id)).toEqual([third.res.body.data.id]);
    const pending = await call("GET", "/users/invitations?status=pending&pageSize=100", {
      headers: tenant.admin,
    });
    expect(pending.body.data.items.every((i: { status: string }) => i.status === "pending")).toBe(true);
    expect((await call("GET", "/users/invitations?status=lost", { headers: tenant.admin })).status).toBe(400);
  });

  it("an accepted invitation cannot be revoked (409); a member cannot be invited again (409)", async () => {
    const member = await newMember(tenant, "viewer");
    const [accepted] = (
      await call("GET", "/users/invitations?status=accepted&pageSize=100", { headers: tenant.admin })
    ).body.data.items.filter((i: { email: string }) => i.email === member.email);
    expect(
      (await call("DELETE", `/users/invitations/${accepted?.id}`, { headers: tenant.admin })).status,
    ).toBe(409);
    expect((await invite({ email: member.email, role: "admin" })).status).toBe(409);
  });

  it("tokens are in no API response and stored only as hashes", async () => {
    const address = email();
    const { res, token } = await invited(address);
    const list = await call("GET", "/users/invitations?pageSize=100", { headers: tenant.admin });
    for (const body of [res.body, list.body, (await inspect(token)).body]) {
      expect(JSON.stringify(body)).not.toContain(token);
      expect(JSON.stringify(body)).not.toMatch(/token/i);
    }
    const rows = await platformDatabase()
      .prepare("select * from invitations where email = ?")
      .bind(address)
      .all();
    expect(JSON.stringify(rows.results)).not.toContain(token);
  });

  it("401 without credentials, 403 without admin, 404 for another tenant's invitation", async () => {
    const { res } = await invited(email());
    const id = res.body.data.id;
    expect((await call("GET", "/users/invitations")).status).toBe(401);
    expect((await call("DELETE", `/users/invitations/${id}`)).status).toBe(401);
    expect((await call("POST", "/users", { body: { email: email(), role: "viewer" } })).status).toBe(401);
    const writer = await scopedKey(tenant, ["write:products", "write:inventory", "write:orders"]);
    expect((await call("GET", "/users/invitations", { headers: writer })).status).toBe(403);
    expect((await call("DELETE", `/users/invitations/${id}`, { headers: writer })).status).toBe(403);
    expect((await invite({ email: email(), role: "viewer" }, writer)).status).toBe(403);

    const other = await createTenant();
    expect((await call("DELETE", `/users/invitations/${id}`, { headers: other.admin })).status).toBe(404);
    const theirs = await call("GET", "/users/invitations?pageSize=100", { headers: other.admin });
    expect(theirs.body.data.items).toEqual([]);
    expect((await call("DELETE", "/users/invitations/not-a-uuid", { headers: tenant.admin })).status).toBe(
      400,
    );
    expect((await inspect("wms_inv_guess")).status).toBe(404);
    expect((await accept({ token: "wms_inv_guess", password: "pw-123456", name: "G" })).status).toBe(404);
    expect((await loginHeaders(tenant, tenant.owner.email, tenant.owner.password)).authorization).toMatch(
      /^Bearer/,
    );
  });
});
