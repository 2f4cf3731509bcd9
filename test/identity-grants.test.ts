import { describe, expect, it } from "vitest";
import { createTenant, newMember, type TestTenant, unique } from "./support/builders";
import { platformDatabase } from "./support/database";
import { call } from "./support/http";
import { mailCount, mailTo, tokenIn } from "./support/mail";

// What a member or key grants lives no longer than its right to grant it: pending invitations are re-judged
// when accepted and revoked when their sender is removed, demoted or revoked; only owners make owners; a key
// made with a key stays within it.

type Headers = Record<string, string>;

/** Invites a new email with `role` as `headers`; the answer and the mailed token (when it was sent). */
async function invite(headers: Headers, role: string) {
  const email = `invitee-${unique()}@example.com`;
  const before = mailCount(email);
  const res = await call("POST", "/users", { headers, body: { email, role } });
  return { res, email, token: res.status === 202 ? tokenIn(await mailTo(email, before)) : "" };
}

const accept = (token: string) =>
  call("POST", "/auth/invitations/accept", {
    body: { token, password: "joiner-password-1", name: "Joiner" },
  });

const statusOf = async (t: TestTenant, invitationId: string) => {
  const list = await call("GET", "/users/invitations?pageSize=100", { headers: t.admin });
  return list.body.data.items.find((item: { id: string }) => item.id === invitationId)?.status;
};

/** An admin-scoped key made by `headers` (its rights follow that member's role). */
async function adminKey(headers: Headers, extra: Record<string, unknown> = {}) {
  const res = await call("POST", "/api-keys", {
    headers,
    body: { name: "ops", scopes: ["admin"], ...extra },
  });
  expect(res.status).toBe(201);
  return {
    id: res.body.data.id as string,
    headers: { "x-api-key": res.body.data.key as string },
    body: res.body.data,
  };
}

describe("pending invitations and their sender's rights", () => {
  it("attack: a removed admin's invitation to their second mailbox dies with their membership", async () => {
    const t = await createTenant();
    const admin = await newMember(t, "admin");
    const sent = await invite(admin.headers, "admin");
    expect(sent.res.status).toBe(202);
    expect((await call("DELETE", `/users/${admin.id}`, { headers: t.admin })).status).toBe(200);

    expect(await statusOf(t, sent.res.body.data.id)).toBe("revoked");
    expect((await accept(sent.token)).status).toBe(404);
  });

  it("a removed admin's keys' invitations die too, and so do a revoked key's", async () => {
    const t = await createTenant();
    const admin = await newMember(t, "admin");
    const key = await adminKey(admin.headers);
    const byKey = await invite(key.headers, "operator");
    expect(byKey.res.body.data.invitedBy).toEqual({ type: "api_key", id: key.id });
    const ownersKey = await adminKey(t.admin);
    const byRevokedKey = await invite(ownersKey.headers, "viewer");

    expect((await call("DELETE", `/users/${admin.id}`, { headers: t.admin })).status).toBe(200);
    expect((await call("DELETE", `/api-keys/${ownersKey.id}`, { headers: t.admin })).status).toBe(200);

    for (const sent of [byKey, byRevokedKey]) {
      expect(await statusOf(t, sent.res.body.data.id)).toBe("revoked");
      expect((await accept(sent.token)).status).toBe(404);
    }
  });

  it("a demotion revokes exactly what the new role can no longer grant", async () => {
    const t = await createTenant();
    const owner2 = await newMember(t, "owner");
    const asOwner = await invite(owner2.headers, "owner");
    const asAdmin = await invite(owner2.headers, "operator");
    const admin = await newMember(t, "admin");
    const byAdmin = await invite(admin.headers, "viewer");

    expect(
      (await call("PUT", `/users/${owner2.id}`, { headers: t.admin, body: { role: "admin" } })).status,
    ).toBe(200);
    expect(
      (await call("PUT", `/users/${admin.id}`, { headers: t.admin, body: { role: "manager" } })).status,
    ).toBe(200);

    expect(await statusOf(t, asOwner.res.body.data.id)).toBe("revoked");
    expect(await statusOf(t, asAdmin.res.body.data.id)).toBe("pending");
    expect(await statusOf(t, byAdmin.res.body.data.id)).toBe("revoked");
    expect((await accept(asOwner.token)).status).toBe(404);
    expect((await accept(asAdmin.token)).status).toBe(200);
  });

  it("accepting re-checks the sender: an invitation from a key that has since expired is refused", async () => {
    const t = await createTenant();
    const key = await adminKey(t.admin, { expiresAt: new Date(Date.now() + 3_600_000).toISOString() });
    const sent = await invite(key.headers, "operator");
    await platformDatabase()
      .prepare("update api_keys set expires_at = ? where id = ?")
      .bind(new Date(Date.now() - 1000).toISOString(), key.id)
      .run();

    const inspected = await call("POST", "/auth/invitations/inspect", { body: { token: sent.token } });
    expect(inspected.status).toBe(404);
    expect(inspected.body.message).toContain("can no longer grant the operator role");
    expect((await accept(sent.token)).status).toBe(404);
    expect(await statusOf(t, sent.res.body.data.id)).toBe("revoked");
  });
});

describe("the owner role", () => {
  it("attack: an admin can neither make themself owner nor remove or demote the owner", async () => {
    const t = await createTenant();
    const admin = await newMember(t, "admin");
    const key = await adminKey(admin.headers);
    for (const headers of [admin.headers, key.headers]) {
      const promote = await call("PUT", `/users/${admin.id}`, { headers, body: { role: "owner" } });
      expect(promote.status).toBe(403);
      expect(promote.body.message).toBe("Only an owner can grant, change or remove the owner role");
      expect((await call("PUT", `/users/${t.owner.id}`, { headers, body: { role: "viewer" } })).status).toBe(
        403,
      );
      expect((await call("DELETE", `/users/${t.owner.id}`, { headers })).status).toBe(403);
      expect((await invite(headers, "owner")).res.status).toBe(403);
    }
    const owners = await platformDatabase()
      .prepare("select user_id as id from memberships where tenant_id = ? and role = 'owner'")
      .bind(t.id)
      .all<{ id: string }>();
    expect(owners.results).toEqual([{ id: t.owner.id }]);
    // An admin still manages everyone else.
    const operator = await newMember(t, "operator");
    expect(
      (await call("PUT", `/users/${operator.id}`, { headers: admin.headers, body: { role: "viewer" } }))
        .status,
    ).toBe(200);
  });

  it("an owner grants, changes and removes it", async () => {
    const t = await createTenant();
    const admin = await newMember(t, "admin");
    expect(
      (await call("PUT", `/users/${admin.id}`, { headers: t.admin, body: { role: "owner" } })).status,
    ).toBe(200);
    expect(
      (await call("PUT", `/users/${admin.id}`, { headers: t.admin, body: { role: "admin" } })).status,
    ).toBe(200);
    expect((await invite(t.admin, "owner")).res.status).toBe(202);
    const owner2 = await newMember(t, "owner");
    expect((await call("DELETE", `/users/${owner2.id}`, { headers: t.admin })).status).toBe(200);
  });
});

describe("a key made with a key", () => {
  it("takes its maker's allow list and expiry when it names none", async () => {
    const t = await createTenant();
    const expiresAt = new Date(Date.now() + 3_600_000).toISOString();
    const maker = await adminKey(t.admin, { allowedIps: ["203.0.113.0/24"], expiresAt });
    const child = await call("POST", "/api-keys", {
      headers: { ...maker.headers, "cf-connecting-ip": "203.0.113.7" },
      body: { name: "child", scopes: ["read:products"] },
    });
    expect(child.status).toBe(201);
    expect(child.body.data).toMatchObject({ allowedIps: ["203.0.113.0/24"], expiresAt });
    const fromElsewhere = await call("GET", "/products", {
      headers: { "x-api-key": child.body.data.key, "cf-connecting-ip": "198.51.100.1" },
    });
    expect(fromElsewhere.status).toBe(403);
  });

  it("refuses (403) an allow list or an expiry beyond its maker's, naming each", async () => {
    const t = await createTenant();
    const expiresAt = new Date(Date.now() + 3_600_000).toISOString();
    const maker = await adminKey(t.admin, { allowedIps: ["203.0.113.0/24", "2001:db8::/32"], expiresAt });
    const headers = { ...maker.headers, "cf-connecting-ip": "203.0.113.7" };
    const broader = await call("POST", "/api-keys", {
      headers,
      body: {
        name: "child",
        scopes: ["read:products"],
        allowedIps: ["203.0.113.128/25", "203.0.0.0/16", "2001:db8:1::/48", "198.51.100.1"],
        expiresAt: new Date(Date.now() + 7_200_000).toISOString(),
      },
    });
    expect(broader.status).toBe(403);
    expect(broader.body.errors).toEqual([
      "allowedIps[1]: 203.0.0.0/16 is not within the allow list of the key making it",
      "allowedIps[3]: 198.51.100.1 is not within the allow list of the key making it",
      `expiresAt: must not be after the expiry of the key making it (${expiresAt})`,
    ]);
    const narrower = await call("POST", "/api-keys", {
      headers,
      body: {
        name: "child",
        scopes: ["read:products"],
        allowedIps: ["203.0.113.128/25", "2001:db8:1::/48"],
        expiresAt: new Date(Date.now() + 1_800_000).toISOString(),
      },
    });
    expect(narrower.status).toBe(201);
  });

  it("a member's own keys are bounded by nothing but their role", async () => {
    const t = await createTenant();
    const key = await call("POST", "/api-keys", {
      headers: t.admin,
      body: { name: "open", scopes: ["read:products"] },
    });
    expect(key.body.data).toMatchObject({ allowedIps: null, expiresAt: null });
  });
});
