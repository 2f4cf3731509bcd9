import { introspectWorkflow } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import {
  adjustStock,
  createLocation,
  createMerchant,
  createProduct,
  createTenant,
  createWarehouse,
  newMember,
  type TestTenant,
  unique,
  whoAmI,
} from "./support/builders";
import { platformDatabase } from "./support/database";
import { call } from "./support/http";
import { startJob, waitForJob } from "./support/jobs";
import { mailCount, mailTo, tokenIn } from "./support/mail";
import { stubReceiver } from "./support/webhook-receiver";

// Issue #44: whatever a member made acts with at most the member's current rights, merchant restriction included
// (src/auth/rights.ts). Each test is one finding of the review, written as the attack.

type Headers = Record<string, string>;

/** A tenant with two merchants, each with one product in stock. */
async function threePl() {
  const t = await createTenant();
  const [m1, m2] = [await createMerchant(t), await createMerchant(t)];
  const warehouse = await createWarehouse(t);
  const bin = await createLocation(t, warehouse.id);
  const p1 = await createProduct(t, { merchantId: m1 });
  const p2 = await createProduct(t, { merchantId: m2 });
  await adjustStock(t, p1.id, bin.id, 5);
  await adjustStock(t, p2.id, bin.id, 5);
  return { t, m1, m2, p1, p2, bin };
}

async function adminKey(headers: Headers, extra: Record<string, unknown> = {}) {
  const res = await call("POST", "/api-keys", {
    headers,
    body: { name: "ops", scopes: ["admin"], ...extra },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { id: res.body.data.id as string, headers: { "x-api-key": res.body.data.key as string } };
}

const restrict = (t: TestTenant, userId: string, merchantId: string | null, role = "admin") =>
  call("PUT", `/users/${userId}`, { headers: t.admin, body: { role, merchantId } });

const productIds = async (headers: Headers) =>
  ((await call("GET", "/products?pageSize=100", { headers })).body.data.items as { id: string }[]).map(
    (p) => p.id,
  );

async function invite(headers: Headers, body: Record<string, unknown>) {
  const email = `invitee-${unique()}@example.com`;
  const before = mailCount(email);
  const res = await call("POST", "/users", { headers, body: { email, ...body } });
  return { res, email, token: res.status === 202 ? tokenIn(await mailTo(email, before)) : "" };
}

const accept = (token: string) =>
  call("POST", "/auth/invitations/accept", {
    body: { token, password: "joiner-password-1", name: "Joiner" },
  });

describe("restricting a member to a merchant restricts what they made", () => {
  it("attack (High): an admin's old key lists only the merchant's goods, mints no tenant-wide key and cannot lift the restriction", async () => {
    const { t, m1, p1 } = await threePl();
    const admin = await newMember(t, "admin");
    const key = await adminKey(admin.headers);
    expect((await restrict(t, admin.id, m1)).status).toBe(200);

    expect(await productIds(key.headers)).toEqual([p1.id]);
    expect((await whoAmI(key.headers, "api_key")).apiKey.merchantId).toBe(m1);
    const wide = await call("POST", "/api-keys", {
      headers: key.headers,
      body: { name: "x", scopes: ["admin"] },
    });
    expect(wide.status).toBe(403);
    for (const headers of [key.headers, admin.headers]) {
      const lift = await call("PUT", `/users/${admin.id}`, {
        headers,
        body: { role: "admin", merchantId: null },
      });
      expect(lift.status).toBe(403);
    }
    const member = await call("GET", `/users/${admin.id}`, { headers: t.admin });
    expect(member.body.data.merchantId).toBe(m1);
    // Lifted by the owner, the key is tenant-wide again: it reads its creator's current rights at each use.
    expect((await restrict(t, admin.id, null)).status).toBe(200);
    expect((await productIds(key.headers)).length).toBe(2);
  });

  it("a key made for another merchant than the one its creator is restricted to stops working", async () => {
    const { t, m1, m2 } = await threePl();
    const admin = await newMember(t, "admin");
    const forM2 = await adminKey(admin.headers, { merchantId: m2 });
    expect((await restrict(t, admin.id, m1)).status).toBe(200);
    const res = await call("GET", "/products", { headers: forM2.headers });
    expect(res.status).toBe(401);
    expect(res.body.message).toContain(`merchant ${m2}`);
  });

  it("attack (High): an invitation sent before the restriction is revoked, and accepting it yields nothing", async () => {
    const { t, m1 } = await threePl();
    const admin = await newMember(t, "admin");
    const key = await adminKey(admin.headers);
    const byMember = await invite(admin.headers, { role: "admin" });
    const byKey = await invite(key.headers, { role: "operator" });
    expect(byMember.res.status).toBe(202);
    expect((await restrict(t, admin.id, m1)).status).toBe(200);

    for (const sent of [byMember, byKey]) {
      const list = await call("GET", "/users/invitations?pageSize=100", { headers: t.admin });
      const row = list.body.data.items.find((i: { id: string }) => i.id === sent.res.body.data.id);
      expect(row?.status).toBe("revoked");
      expect((await accept(sent.token)).status).toBe(404);
    }
    const members = await call("GET", "/users?pageSize=100", { headers: t.admin });
    expect(members.body.data.items.map((m: { email: string }) => m.email)).not.toContain(byMember.email);
  });

  it("attack (Medium): a subscription made before the restriction sends no other merchant's event and says why", async () => {
    const { t, m1, p2, bin } = await threePl();
    const admin = await newMember(t, "admin");
    const url = `https://hooks.example.com/${unique()}`;
    const hook = await call("POST", "/webhooks", { headers: admin.headers, body: { url, events: ["*"] } });
    expect(hook.status).toBe(201);
    expect((await restrict(t, admin.id, m1)).status).toBe(200);

    const { received } = stubReceiver();
    await adjustStock(t, p2.id, bin.id, 1);
    const deliveries = async () =>
      (await call("GET", `/webhooks/${hook.body.data.id}/deliveries`, { headers: t.admin })).body.data.items;
    await expect.poll(async () => (await deliveries()).length, { timeout: 10_000 }).toBeGreaterThan(0);
    await expect.poll(async () => (await deliveries())[0]?.status, { timeout: 10_000 }).toBe("failed");
    expect(received.filter((r) => r.url === url)).toEqual([]);
    const stopped = (await call("GET", `/webhooks/${hook.body.data.id}`, { headers: t.admin })).body.data;
    expect(stopped.active).toBe(false);
    expect(stopped.disabledReason).toContain(`now acts for merchant ${m1} only`);
    // While the creator stays restricted, nobody turns it back on.
    const again = await call("PUT", `/webhooks/${hook.body.data.id}`, {
      headers: t.admin,
      body: { url, events: ["*"], active: true },
    });
    expect(again.status).toBe(409);
  });

  it("a job stops (failed, saying why) at its next step once its creator is restricted", async () => {
    const { t, m1 } = await threePl();
    const admin = await newMember(t, "admin");
    await using introspector = await introspectWorkflow(env.JOBS);
    // The first attempt of its first step fails, so the restriction lands before the retry.
    await introspector.modifyAll(async (m) => {
      await m.mockStepError({ name: "start" }, new Error("held back by the test"), 1);
    });
    const job = await startJob(admin.headers, { type: "products_export" });
    expect((await restrict(t, admin.id, m1)).status).toBe(200);
    const ended = await waitForJob(t.admin, job.id);
    expect(ended.status).toBe("failed");
    expect(ended.error).toContain(`its creator now acts for merchant ${m1} only`);
  });
});

describe("a key made with a key", () => {
  it("stops when the key that made it is revoked or expires", async () => {
    const t = await createTenant();
    const parent = await adminKey(t.admin);
    const childRes = await call("POST", "/api-keys", {
      headers: parent.headers,
      body: { name: "child", scopes: ["admin"] },
    });
    expect(childRes.body.data.madeWithKey).toBe(parent.id);
    const child = { "x-api-key": childRes.body.data.key as string };
    const grandchild = await adminKey(child);
    expect((await call("GET", "/products", { headers: grandchild.headers })).status).toBe(200);
    expect((await call("DELETE", `/api-keys/${parent.id}`, { headers: t.admin })).status).toBe(200);
    for (const headers of [child, grandchild.headers]) {
      const res = await call("GET", "/products", { headers });
      expect(res.status).toBe(401);
      expect(res.body.message).toContain("the key that made API key");
      expect(res.body.message).toContain("was revoked");
    }
    // Expiry: the parent's time runs out, and its child with it, whatever the child's own expiry says.
    const expiring = await adminKey(t.admin);
    const made = await adminKey(expiring.headers);
    await platformDatabase()
      .prepare("update api_keys set expires_at = ? where id = ?")
      .bind(new Date(Date.now() - 1000).toISOString(), expiring.id)
      .run();
    const res = await call("GET", "/products", { headers: made.headers });
    expect(res.status).toBe(401);
    expect(res.body.message).toContain(`the key that made API key ${made.id} expired`);
  });
});

describe("POST /users with merchantId (Medium)", () => {
  it("invites a brand's person scoped from the first minute", async () => {
    const { t, m1, p1 } = await threePl();
    const sent = await invite(t.admin, { role: "manager", merchantId: m1 });
    expect(sent.res.status).toBe(202);
    expect(sent.res.body.data.merchantId).toBe(m1);
    const preview = await call("POST", "/auth/invitations/inspect", { body: { token: sent.token } });
    expect(preview.body.data.merchantId).toBe(m1);
    const session = await accept(sent.token);
    expect(session.status).toBe(200);
    if (!("user" in session.body.data)) throw new Error("a new person is signed in");
    const headers = { authorization: `Bearer ${session.body.data.token}`, "x-tenant-id": t.id };
    expect(session.body.data.user.memberships).toEqual([
      expect.objectContaining({ tenantId: t.id, role: "manager", merchantId: m1 }),
    ]);
    expect(await productIds(headers)).toEqual([p1.id]);
  });

  it("refuses an unknown merchant (404) and an owner for one merchant (400)", async () => {
    const { t, m1 } = await threePl();
    const unknown = crypto.randomUUID();
    const res = await invite(t.admin, { role: "viewer", merchantId: unknown });
    expect(res.res.status).toBe(404);
    expect(res.res.body.errors).toEqual([`merchantId: merchant ${unknown} not found`]);
    const owner = await invite(t.admin, { role: "owner", merchantId: m1 });
    expect(owner.res.status).toBe(400);
    expect(owner.res.body.errors).toEqual([
      "merchantId: an owner acts for the whole tenant, not one merchant",
    ]);
  });
});
