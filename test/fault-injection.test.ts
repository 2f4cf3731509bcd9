import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import devVarsExample from "../.dev.vars.example?raw";
import { createApp } from "../src/app";
import wranglerToml from "../wrangler.toml?raw";
import { createProduct, createTenant, type TestTenant } from "./support/builders";
import { BASE, call, fetchApi } from "./support/http";

// The soak's fault injection (src/dev/fault-injection.ts) must be inert everywhere but a local
// `wrangler dev` started with FAULT_INJECTION=on: these tests hold it to that.

// As the Worker serves: a read whose key lookup contradicts the view it ran on is served again.
const fetchWorker = createApp().fetch;
const soakEnv = { ...env, FAULT_INJECTION: "on" };
const real = "a-real-secret-that-is-long-enough-0123456789";
const productionEnv = {
  ...soakEnv,
  ENVIRONMENT: "production",
  JWT_SECRET: real,
  PLATFORM_ADMIN_TOKEN: real,
  WEBHOOK_SECRET_KEY: real,
};
async function send(
  url: string,
  headers: Record<string, string>,
  bindings: typeof env,
  init: RequestInit = {},
) {
  const ctx = createExecutionContext();
  const response = await fetchApi(new Request(url, { ...init, headers }), (request) =>
    fetchWorker(request, bindings, ctx),
  );
  await waitOnExecutionContext(ctx);
  return response;
}

let tenant: TestTenant;
beforeAll(async () => {
  tenant = await createTenant({ plan: "starter" });
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe("fault injection, switched on for the soak", () => {
  it("fails the database as asked and marks the response, so the soak can tell an injected 5xx from a real one", async () => {
    const response = await send(`${BASE}/health`, { "X-Fault-Inject": "d1-statement=1" }, soakEnv);
    expect(response.status).toBe(503);
    // /health pings the platform database and every shard: each ping fails.
    expect(response.headers.get("X-Fault-Injected")).toMatch(/^d1-statement=\d+$/);
  });

  it("rolls a failed batch back whole: the write it carried is not stored", async () => {
    const sku = `FAULT-${Date.now()}`;
    const response = await send(
      `${BASE}/products`,
      { ...tenant.admin, "content-type": "application/json", "X-Fault-Inject": "d1-batch=1" },
      soakEnv,
      { method: "POST", body: JSON.stringify({ sku, name: "Never stored", price: 1 }) },
    );
    expect(response.status).toBe(500);
    expect(response.headers.get("X-Fault-Injected")).toMatch(/^d1-batch=\d+$/);
    const listed = await call("GET", `/products?search=${sku}`, { headers: tenant.admin });
    expect(listed.body.data.items).toEqual([]);
  });

  it("serves without limit when the rate-limit object is unreachable (fail open), and logs it", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const fresh = await createTenant({ plan: "starter" });
    const response = await send(`${BASE}/auth/me`, { ...fresh.admin, "X-Fault-Inject": "limiter" }, soakEnv);
    expect(response.status).toBe(200);
    expect(response.headers.get("X-Fault-Injected")).toMatch(/^limiter=\d+$/);
    expect(response.headers.get("X-RateLimit-Limit")).toBeNull();
    expect(warn.mock.calls.map(([line]) => String(line)).join("\n")).toContain("fail open");
  });

  it("answers a refused read whose key lookup then fails with the failure alone: nothing the soak could take for an admission", async () => {
    const spender = await createTenant({ plan: "starter" });
    const orders = `${BASE}/orders`;
    // The key is remembered: its reads run on that view while their lookup runs alongside.
    expect((await send(orders, spender.admin, soakEnv)).status).toBe(200);
    const spent = await Promise.all(Array.from({ length: 59 }, () => send(orders, spender.admin, soakEnv)));
    expect(spent.map((response) => response.status)).toEqual(Array(59).fill(200));
    expect((await send(orders, spender.admin, soakEnv)).status).toBe(429);
    const failed = await send(orders, { ...spender.admin, "X-Fault-Inject": "d1-batch=1" }, soakEnv);
    expect(failed.status).toBe(500);
    expect(failed.headers.get("X-Fault-Injected")).toMatch(/^d1-batch=\d+$/);
    // The limiter refused the first run; the lookup's failure is the answer, without that refusal's headers.
    expect(failed.headers.get("X-RateLimit-Limit")).toBeNull();
    expect(failed.headers.get("Retry-After")).toBeNull();
  });

  it("leaves a request without the header alone", async () => {
    const response = await send(`${BASE}/health`, {}, soakEnv);
    expect(response.status).toBe(200);
    expect(response.headers.get("X-Fault-Injected")).toBeNull();
  });
});

describe("fault injection, never active anywhere else", () => {
  it("is ignored by a production Worker, even one deployed with FAULT_INJECTION=on by mistake", async () => {
    const response = await send(
      "https://warehouse.example.com/api/v1/health",
      { "X-Fault-Inject": "d1-statement=1, d1-batch=1, limiter, queue" },
      productionEnv,
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("X-Fault-Injected")).toBeNull();
  });

  it("is ignored in development unless the soak switched it on", async () => {
    const response = await call("GET", "/health", { headers: { "X-Fault-Inject": "d1-statement=1" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("X-Fault-Injected")).toBeNull();
    const product = await createProduct(tenant);
    const read = await call("GET", `/products/${product.id}`, {
      headers: { ...tenant.admin, "X-Fault-Inject": "d1-statement=1" },
    });
    expect(read.status).toBe(200);
  });

  it("is switched on by no committed configuration", () => {
    expect(env.FAULT_INJECTION).toBeUndefined();
    expect(wranglerToml).not.toContain("FAULT_INJECTION");
    expect(devVarsExample).not.toContain("FAULT_INJECTION");
  });
});
