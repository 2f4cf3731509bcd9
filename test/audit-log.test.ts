import { beforeAll, describe, expect, it } from "vitest";
import { createMerchant, createTenant, scopedKey, type TestTenant, unique } from "./support/builders";
import { platformDatabase, tenantDatabase } from "./support/database";
import { BASE, call, fetchApi } from "./support/http";

// The audit log (docs/decisions/audit-log.md): each audited action writes exactly one entry with its change, a
// failed one none; each tenant's chains verify, and an entry changed in D1 is found.

interface Entry {
  id: string;
  chain: "platform" | "tenant";
  seq: number;
  action: string;
  actor: { type: string; id: string | null; chain: { type: string; id: string }[] };
  merchantId: string | null;
  target: { type: string; id: string | null };
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  ip: string | null;
  userAgent: string | null;
  requestId: string | null;
  hash: string | null;
}

let tenant: TestTenant;
beforeAll(async () => {
  tenant = await createTenant();
});

async function entries(who: Record<string, string>, query = "") {
  const res = await call("GET", `/audit-events?limit=100${query}`, { headers: who });
  expect(res.status).toBe(200);
  return (res.body.data as { items: Entry[] }).items;
}

const about = async (who: Record<string, string>, targetId: string) => entries(who, `&targetId=${targetId}`);

async function verify(who: Record<string, string>) {
  const res = await call("GET", "/audit-events/verify", { headers: who });
  expect(res.status).toBe(200);
  return res.body.data as {
    valid: boolean;
    chains: { chain: string; entries: number; broken: { id: string | null; reason: string } | null }[];
  };
}

const from = { "cf-connecting-ip": "203.0.113.7", "user-agent": "audit-test/1.0" };

describe("the audit log", () => {
  it("records a key made and revoked once each, with who, from where and no key material", async () => {
    const made = await call("POST", "/api-keys", {
      headers: { ...tenant.admin, ...from },
      body: { name: "audited", scopes: ["read:orders"] },
    });
    expect(made.status).toBe(201);
    const { id, key } = made.body.data;
    const revoked = await call("DELETE", `/api-keys/${id}`, { headers: tenant.admin });
    expect(revoked.status).toBe(200);
    // Revoking it again changes nothing, so it records nothing.
    expect((await call("DELETE", `/api-keys/${id}`, { headers: tenant.admin })).status).toBe(200);

    const found = await about(tenant.admin, id);
    expect(found.map((e) => e.action).sort()).toEqual(["api_key.created", "api_key.revoked"]);
    const created = found.find((e) => e.action === "api_key.created") as Entry;
    const adminKey = (await call("GET", "/auth/me", { headers: tenant.admin })).body.data as {
      apiKey: { id: string };
    };
    expect(created).toMatchObject({
      chain: "platform",
      actor: { type: "api_key", id: adminKey.apiKey.id },
      target: { type: "api_key", id },
      ip: "203.0.113.7",
      userAgent: "audit-test/1.0",
      requestId: made.headers.get("x-request-id"),
      after: { name: "audited", scopes: ["read:orders"] },
    });
    // The key's chain ends at the member accountable for it.
    expect(created.actor.chain.at(-1)).toEqual({ type: "user", id: tenant.owner.id });
    expect(JSON.stringify(found)).not.toContain(key);
    const stored = await platformDatabase()
      .prepare("select * from audit_events where target_id = ?")
      .bind(id)
      .all();
    expect(JSON.stringify(stored.results)).not.toContain(key);
  });

  it("names the keys that made a key made with a key", async () => {
    const maker = await call("POST", "/api-keys", {
      headers: tenant.admin,
      body: { name: "maker", scopes: ["admin"] },
    });
    const made = await call("POST", "/api-keys", {
      headers: { "x-api-key": maker.body.data.key },
      body: { name: "made by a key", scopes: ["read:orders"] },
    });
    expect(made.status).toBe(201);
    // The maker was made with the tenant's first key, which its owner made.
    const first = (await call("GET", "/auth/me", { headers: tenant.admin })).body.data as {
      apiKey: { id: string };
    };
    const [entry] = await about(tenant.admin, made.body.data.id);
    expect(entry?.actor.chain).toEqual([
      { type: "api_key", id: maker.body.data.id },
      { type: "api_key", id: first.apiKey.id },
      { type: "user", id: tenant.owner.id },
    ]);
  });

  it("records webhook changes in the tenant's chain without the signing secret, and a refused change none", async () => {
    const made = await call("POST", "/webhooks", {
      headers: tenant.admin,
      body: { url: "https://example.com/audit-hook", events: ["order.created"] },
    });
    expect(made.status).toBe(201);
    const { id, secret } = made.body.data;
    expect(
      (
        await call("PUT", `/webhooks/${id}`, {
          headers: tenant.admin,
          body: {
            url: "https://example.com/audit-hook-2",
            events: ["order.created", "order.shipped"],
            active: true,
          },
        })
      ).status,
    ).toBe(200);
    const rotated = await call("POST", `/webhooks/${id}/rotate-secret`, { headers: tenant.admin });
    expect(rotated.status, JSON.stringify(rotated.body)).toBe(200);
    // A refused update (unknown subscription) writes nothing.
    const missing = crypto.randomUUID();
    const refused = await call("PUT", `/webhooks/${missing}`, {
      headers: tenant.admin,
      body: { url: "https://example.com/x", events: ["order.created", "order.shipped"], active: true },
    });
    expect(refused.status).toBe(404);
    expect(await about(tenant.admin, missing)).toEqual([]);
    expect((await call("DELETE", `/webhooks/${id}`, { headers: tenant.admin })).status).toBe(200);

    const found = await about(tenant.admin, id);
    expect(found.map((e) => e.action).sort()).toEqual([
      "webhook.created",
      "webhook.deleted",
      "webhook.secret_rotated",
      "webhook.updated",
    ]);
    expect(found.every((e) => e.chain === "tenant")).toBe(true);
    const updated = found.find((e) => e.action === "webhook.updated") as Entry;
    expect(updated.before).toMatchObject({ url: "https://example.com/audit-hook" });
    expect(updated.after).toMatchObject({ url: "https://example.com/audit-hook-2" });
    const text = JSON.stringify(found);
    expect(text).not.toContain(secret);
    expect(text).not.toContain(rotated.body.data.secret);
    const stored = await (await tenantDatabase(tenant.id))
      .prepare("select * from audit_events where target_id = ?")
      .bind(id)
      .all();
    expect(stored.results).toHaveLength(4);
    expect(JSON.stringify(stored.results)).not.toContain(secret);
  });

  it("records sign-ins and failed sign-ins of a member, never the password", async () => {
    const { email, password } = tenant.owner;
    expect(
      (await call("POST", "/auth/login", { headers: from, body: { email, password: "wrong-password-9" } }))
        .status,
    ).toBe(401);
    expect((await call("POST", "/auth/login", { headers: from, body: { email, password } })).status).toBe(
      200,
    );
    const found = await entries(tenant.admin, `&action=session.*&targetId=${tenant.owner.id}`);
    expect(found.map((e) => e.action)).toEqual(["session.signed_in", "session.sign_in_failed"]);
    expect(found[0]?.actor).toMatchObject({ type: "user", id: tenant.owner.id });
    expect(found[1]?.actor).toMatchObject({ type: "anonymous", id: null });
    expect(found.every((e) => e.ip === "203.0.113.7")).toBe(true);
    expect(JSON.stringify(found)).not.toContain("wrong-password-9");
    // An unknown email belongs to no tenant: nothing is recorded anywhere.
    const before = await platformDatabase()
      .prepare("select count(*) as n from audit_events")
      .first<{ n: number }>();
    await call("POST", "/auth/login", {
      body: { email: `nobody-${unique()}@example.com`, password: "x-password-1" },
    });
    const after = await platformDatabase()
      .prepare("select count(*) as n from audit_events")
      .first<{ n: number }>();
    expect(after?.n).toBe(before?.n);
  });

  it("pages with a cursor, filters, and exports CSV", async () => {
    const own = await createTenant();
    for (let i = 0; i < 5; i++) {
      await call("POST", "/api-keys", {
        headers: own.admin,
        body: { name: `k${i}`, scopes: ["read:orders"] },
      });
    }
    const first = await call("GET", "/audit-events?limit=2&action=api_key.created", { headers: own.admin });
    const page = first.body.data as { items: Entry[]; nextCursor: string };
    expect(page.items).toHaveLength(2);
    const seen = [...page.items];
    let cursor: string | null = page.nextCursor;
    while (cursor) {
      const next = await call("GET", `/audit-events?limit=2&action=api_key.created&after=${cursor}`, {
        headers: own.admin,
      });
      const data = next.body.data as { items: Entry[]; nextCursor: string | null };
      seen.push(...data.items);
      cursor = data.nextCursor;
    }
    expect(seen.map((e) => e.after?.name)).toEqual(["k4", "k3", "k2", "k1", "k0"]);
    expect(await entries(own.admin, "&action=webhook.*")).toEqual([]);
    expect(await entries(own.admin, "&to=2000-01-01")).toEqual([]);

    const res = await fetchApi(
      new Request(`${BASE}/audit-events?format=csv&action=api_key.created`, { headers: own.admin }),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/csv");
    const lines = (await res.text()).trim().split("\r\n");
    expect(lines[0]).toMatch(/^createdAt,id,chain,seq,action,/);
    expect(lines).toHaveLength(6);
  });

  it("verifies its chains and finds an entry changed in D1", async () => {
    const own = await createTenant();
    await call("POST", "/api-keys", { headers: own.admin, body: { name: "one", scopes: ["read:orders"] } });
    await call("POST", "/webhooks", {
      headers: own.admin,
      body: { url: "https://example.com/chain", events: ["order.created"] },
    });
    const clean = await verify(own.admin);
    expect(clean.valid).toBe(true);
    // The platform's chain starts with the tenant's creation.
    expect(clean.chains.map((c) => [c.chain, c.entries])).toEqual([
      ["platform", 2],
      ["tenant", 1],
    ]);

    const [entry] = await entries(own.admin, "&action=api_key.created");
    await platformDatabase()
      .prepare(
        "update audit_events set after = json_set(after, '$.scopes', json('[\"admin\"]')) where id = ?",
      )
      .bind(entry?.id)
      .run();
    const tampered = await verify(own.admin);
    expect(tampered.valid).toBe(false);
    expect(tampered.chains[0]?.broken).toMatchObject({
      id: entry?.id,
      reason: "entry changed since it was sealed",
    });
    expect(tampered.chains[1]?.broken).toBeNull();
  });

  it("keeps one valid chain under concurrent admin actions", async () => {
    const own = await createTenant();
    const results = await Promise.all([
      ...Array.from({ length: 8 }, (_, i) =>
        call("POST", "/api-keys", { headers: own.admin, body: { name: `c${i}`, scopes: ["read:orders"] } }),
      ),
      ...Array.from({ length: 8 }, (_, i) =>
        call("POST", "/webhooks", {
          headers: own.admin,
          body: { url: `https://example.com/concurrent-${i}`, events: ["order.created"] },
        }),
      ),
    ]);
    expect(results.map((r) => r.status)).toEqual(Array(16).fill(201));
    const check = await verify(own.admin);
    expect(check).toMatchObject({ valid: true });
    // The platform's chain starts with the tenant's creation.
    expect(check.chains.map((c) => c.entries)).toEqual([9, 8]);
    const all = await entries(own.admin);
    for (const [chain, length] of [
      ["platform", 9],
      ["tenant", 8],
    ] as const) {
      const seqs = all
        .filter((e) => e.chain === chain)
        .map((e) => e.seq)
        .sort((a, b) => a - b);
      expect(seqs).toEqual(Array.from({ length }, (_, k) => k + 1));
    }
  });

  it("shows a merchant's credential its merchant's entries only", async () => {
    const own = await createTenant();
    const merchantId = await createMerchant(own);
    const merchantKey = await call("POST", "/api-keys", {
      headers: own.admin,
      body: { name: "merchant admin", scopes: ["admin"], merchantId },
    });
    const merchant = { "x-api-key": merchantKey.body.data.key };
    const theirs = await call("POST", "/webhooks", {
      headers: merchant,
      body: { url: "https://example.com/merchant", events: ["order.created"] },
    });
    expect(theirs.status).toBe(201);
    await call("POST", "/webhooks", {
      headers: own.admin,
      body: { url: "https://example.com/own", events: ["order.created"] },
    });

    const seen = await entries(merchant);
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((e) => e.merchantId === merchantId)).toBe(true);
    expect(seen.map((e) => e.target.id)).toContain(theirs.body.data.id);
    const everything = await entries(own.admin);
    const notTheirs = everything.find((e) => e.merchantId !== merchantId) as Entry;
    expect((await call("GET", `/audit-events/${notTheirs.id}`, { headers: merchant })).status).toBe(404);
    // Verifying reads the whole tenant's chains: not for a merchant's credential.
    expect((await call("GET", "/audit-events/verify", { headers: merchant })).status).toBe(403);
  });

  it("answers 401, 403, 404 and 400", async () => {
    expect((await call("GET", "/audit-events")).status).toBe(401);
    const reader = await scopedKey(tenant, ["read:orders"]);
    expect((await call("GET", "/audit-events", { headers: reader })).status).toBe(403);
    const [mine] = await entries(tenant.admin);
    const other = await createTenant();
    expect((await call("GET", `/audit-events/${mine?.id}`, { headers: tenant.admin })).status).toBe(200);
    expect((await call("GET", `/audit-events/${mine?.id}`, { headers: other.admin })).status).toBe(404);
    for (const query of [
      "action=nope.made",
      "from=yesterday",
      "from=2026-02-01&to=2026-01-01",
      "after=abc",
      "limit=0",
    ]) {
      const res = await call("GET", `/audit-events?${query}`, { headers: tenant.admin });
      expect(res.status, query).toBe(400);
    }
  });
});
