import {
  createExecutionContext,
  evictDurableObject,
  runDurableObjectAlarm,
  runInDurableObject,
} from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createApp } from "../src/app";
import { generateApiKey } from "../src/auth/api-keys";
import { signAccessToken } from "../src/auth/jwt";
import { BASE, bearer, call } from "./support/http";
import { createTenant, PLATFORM, type TestTenant } from "./support/tenants";

// A cheap tenant read through the real Worker (authenticate -> tenant -> rate limit -> scope -> handler).
const READ = "/orders";
const read = (headers: Record<string, string>, path = READ) => call("GET", path, { headers });

/** A key written straight into D1: creating it through POST /api-keys would spend the budget under test. */
async function keyWith(tenant: { id: string }, scopes: string[]) {
  const key = await generateApiKey(env.ENVIRONMENT);
  await env.DB.prepare(
    "insert into api_keys (id, tenant_id, name, prefix, key_hash, scopes, created_at) values (?, ?, ?, ?, ?, ?, ?)",
  )
    .bind(
      crypto.randomUUID(),
      tenant.id,
      "test",
      key.prefix,
      key.keyHash,
      JSON.stringify(scopes),
      new Date().toISOString(),
    )
    .run();
  return { "x-api-key": key.key };
}

/** The same read through a fresh app on substituted bindings: how a limiter outage is injected. */
async function readWith(bindings: object, headers: Record<string, string>) {
  const response = await createApp().request(
    `${BASE}${READ}`,
    { headers },
    bindings,
    createExecutionContext(),
  );
  return { status: response.status, headers: response.headers };
}

const many = (n: number, headers: Record<string, string>) =>
  Promise.all(Array.from({ length: n }, () => read(headers)));

/** How many responses had each status, e.g. `{ 200: 60, 429: 10 }`. */
function statuses(responses: { status: number }[]) {
  const counts: Record<number, number> = {};
  for (const { status } of responses) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

const limitHeaders = [
  "X-RateLimit-Limit",
  "X-RateLimit-Remaining",
  "X-RateLimit-Reset",
  "RateLimit-Policy",
  "RateLimit",
];

/** An outage injected into a test-only copy of the bindings: every call to the namespace throws. */
const unreachable = {
  idFromName: () => {
    throw new Error("Durable Object namespace unavailable");
  },
};

async function changePlan(tenant: TestTenant, plan: string) {
  const res = await call("PATCH", `/platform/tenants/${tenant.id}`, { headers: PLATFORM, body: { plan } });
  expect(res.status).toBe(200);
}

describe("plan rate limits (a Durable Object per tenant, exact sliding 60 s window)", () => {
  it("gives a Starter tenant exactly 60 requests, each with the limit headers, then 429 with Retry-After", async () => {
    const tenant = await createTenant({ plan: "starter" });
    for (let i = 1; i <= 60; i++) {
      const res = await read(tenant.admin);
      expect(res.status).toBe(200);
      expect(res.headers.get("X-RateLimit-Limit")).toBe("60");
      expect(res.headers.get("X-RateLimit-Remaining")).toBe(String(60 - i));
    }
    const before = Math.floor(Date.now() / 1000);
    const refused = await read(tenant.admin);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ success: false, data: null });
    expect(refused.body.message).toMatch(/rate limit/i);
    expect(refused.headers.get("X-Error-Code")).toBe("RATE_LIMITED");
    expect(refused.headers.get("X-RateLimit-Remaining")).toBe("0");
    const retryAfter = Number(refused.headers.get("Retry-After"));
    expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60).toBe(true);
    const reset = Number(refused.headers.get("X-RateLimit-Reset"));
    expect(reset).toBeGreaterThanOrEqual(before);
    expect(reset).toBeLessThanOrEqual(before + 61);
    expect(refused.headers.get("RateLimit-Policy")).toBe('"starter";q=60;w=60');
    expect(refused.headers.get("RateLimit")).toMatch(/^"starter";r=0;t=\d+$/);
  });

  it("admits exactly 60 of 70 concurrent requests", async () => {
    const tenant = await createTenant({ plan: "starter" });
    const responses = await many(70, tenant.admin);
    expect(statuses(responses)).toEqual({ 200: 60, 429: 10 });
  });

  it("shares one budget between all keys and users of a tenant and leaves other tenants untouched", async () => {
    const tenant = await createTenant({ plan: "starter" });
    const other = await createTenant({ plan: "starter" });
    const secondKey = await keyWith(tenant, ["read:orders"]);
    const { token } = await signAccessToken(env.JWT_SECRET, tenant.owner.id);
    const asOwner = bearer(token, tenant.id);
    expect(statuses(await many(20, tenant.admin))).toEqual({ 200: 20 });
    expect(statuses(await many(20, secondKey))).toEqual({ 200: 20 });
    expect(statuses(await many(30, asOwner))).toEqual({ 200: 20, 429: 10 });
    expect((await read(tenant.admin)).status).toBe(429);
    expect((await read(secondKey)).status).toBe(429);
    const untouched = await read(other.admin);
    expect(untouched.status).toBe(200);
    expect(untouched.headers.get("X-RateLimit-Remaining")).toBe("59");
  });

  it("gives a Business tenant 300 requests", async () => {
    const tenant = await createTenant({ plan: "business" });
    const responses = [...(await many(150, tenant.admin)), ...(await many(150, tenant.admin))];
    expect(statuses(responses)).toEqual({ 200: 300 });
    expect(responses.every((r) => r.headers.get("X-RateLimit-Limit") === "300")).toBe(true);
    const refused = await read(tenant.admin);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("RateLimit-Policy")).toBe('"business";q=300;w=60');
  });

  it("never counts an Enterprise tenant and sends it no limit headers", async () => {
    const tenant = await createTenant({ plan: "enterprise" });
    const responses = await many(80, tenant.admin);
    expect(statuses(responses)).toEqual({ 200: 80 });
    for (const name of [...limitHeaders, "Retry-After"]) expect(responses[0]?.headers.has(name)).toBe(false);
  });

  it("applies a plan change on the very next request", async () => {
    const tenant = await createTenant({ plan: "business" });
    expect(statuses(await many(100, tenant.admin))).toEqual({ 200: 100 });
    await changePlan(tenant, "starter");
    const downgraded = await read(tenant.admin);
    expect(downgraded.status).toBe(429);
    expect(downgraded.headers.get("X-RateLimit-Limit")).toBe("60");
    await changePlan(tenant, "business");
    const upgraded = await read(tenant.admin);
    expect(upgraded.status).toBe(200);
    expect(upgraded.headers.get("X-RateLimit-Remaining")).toBe(String(300 - 101));
    await changePlan(tenant, "enterprise");
    const unlimited = await read(tenant.admin);
    expect(unlimited.status).toBe(200);
    expect(unlimited.headers.has("X-RateLimit-Limit")).toBe(false);
  });

  it("puts the headers on error responses too (404, 400, 403 for a missing scope), and counts them", async () => {
    const tenant = await createTenant({ plan: "starter" });
    const missing = await read(tenant.admin, `/orders/${crypto.randomUUID()}`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get("X-RateLimit-Remaining")).toBe("59");
    for (const name of limitHeaders) expect(missing.headers.has(name)).toBe(true);
    const invalid = await read(tenant.admin, "/orders?page=0");
    expect(invalid.status).toBe(400);
    expect(invalid.headers.get("X-RateLimit-Remaining")).toBe("58");
    const forbidden = await read(await keyWith(tenant, ["read:inventory"]));
    expect(forbidden.status).toBe(403);
    expect(forbidden.headers.get("X-RateLimit-Remaining")).toBe("57");
    expect((await read(tenant.admin)).headers.get("X-RateLimit-Remaining")).toBe("56");
  });

  it("does not count a request refused before its tenant is known (no credential)", async () => {
    const res = await read({});
    expect(res.status).toBe(401);
    expect(res.headers.has("X-RateLimit-Limit")).toBe(false);
  });

  it("keeps the log in the object's storage, so a restarted object does not hand out a fresh budget", async () => {
    const tenant = await createTenant({ plan: "starter" });
    expect(statuses(await many(60, tenant.admin))).toEqual({ 200: 60 });
    await evictDurableObject(env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(`tenant:${tenant.id}`)));
    expect((await read(tenant.admin)).status).toBe(429);
  });
});

describe("when the limiter object cannot be reached", () => {
  afterEach(() => vi.restoreAllMocks());

  it("serves the request (fail open) and logs a structured line", async () => {
    const tenant = await createTenant({ plan: "starter" });
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const res = await readWith({ ...env, RATE_LIMITER: unreachable }, tenant.admin);
    expect(res.status).toBe(200);
    expect(res.headers.has("X-RateLimit-Limit")).toBe(false);
    const line = JSON.parse(String(warn.mock.calls[0]?.[0]));
    expect(line).toMatchObject({ level: "warn", limiter: "tenant", tenantId: tenant.id });
    expect(line.msg).toMatch(/fail open/);
  });
});

describe("refusals known to the isolate", () => {
  it("answers a repeated request while the budget is spent without asking the object again", async () => {
    const tenant = await createTenant({ plan: "starter" });
    expect(statuses(await many(61, tenant.admin))).toEqual({ 200: 60, 429: 1 });
    // With the object unreachable, only the remembered refusal can still answer 429.
    const refused = await readWith({ ...env, RATE_LIMITER: unreachable }, tenant.admin);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("X-RateLimit-Remaining")).toBe("0");
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThanOrEqual(1);
  });
});

describe("limiter storage", () => {
  it("deletes an idle subject's storage once its whole log has expired", async () => {
    const tenant = await createTenant({ plan: "starter" });
    expect((await read(tenant.admin)).status).toBe(200);
    const stub = env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(`tenant:${tenant.id}`));
    const tables = () =>
      runInDurableObject(stub, (_instance, state) =>
        state.storage.sql.exec("SELECT name FROM sqlite_master WHERE name = 'hits'").toArray(),
      );
    expect(await tables()).toHaveLength(1);
    // Pretend the window has passed: age the log, restart the object, run its due alarm.
    await runInDurableObject(stub, (_instance, state) => {
      state.storage.sql.exec("UPDATE hits SET at = at - 60000");
    });
    await evictDurableObject(stub);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(await tables()).toHaveLength(0);
    const next = await read(tenant.admin);
    expect(next.headers.get("X-RateLimit-Remaining")).toBe("59");
  });
});

describe("OpenAPI document", () => {
  it("documents Retry-After and the limit headers on every tenant route's 429", async () => {
    const res = await call("GET", "/openapi.json");
    const doc = res.body as unknown as {
      paths: Record<string, Record<string, { "x-required-scope"?: string; responses: Record<string, any> }>>;
    };
    const tenantOperations = Object.values(doc.paths)
      .flatMap((operations) => Object.values(operations))
      .filter((operation) => operation["x-required-scope"]);
    expect(tenantOperations.length).toBeGreaterThan(0);
    for (const operation of tenantOperations) {
      expect(Object.keys(operation.responses["429"].headers)).toEqual(
        expect.arrayContaining([
          "Retry-After",
          "X-RateLimit-Limit",
          "X-RateLimit-Remaining",
          "X-RateLimit-Reset",
        ]),
      );
    }
  });
});
