import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createApp } from "../src/app";
import wranglerToml from "../wrangler.toml?raw";
import { PLATFORM } from "./support/builders";
import { BASE, call, type Envelope, fetchApi } from "./support/http";
import { servedDocument } from "./support/openapi";

/** Where wrangler.toml's production environment starts (its header line, not a comment naming it). */
const PRODUCTION_SECTION = /^\[env\.production\]$/m;

describe("envelope and statuses", () => {
  it("answers health in the envelope with a generated request id", async () => {
    const res = await call("GET", "/health");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, message: null, errors: null });
    expect(res.body.data).toMatchObject({ status: "ok", database: "ok" });
    expect(res.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("echoes a sane request id and replaces an unsafe one", async () => {
    const echoed = await call("GET", "/health", { headers: { "x-request-id": "abc-123.def" } });
    expect(echoed.headers.get("x-request-id")).toBe("abc-123.def");
    const replaced = await call("GET", "/health", { headers: { "x-request-id": "bad id\twith spaces" } });
    expect(replaced.headers.get("x-request-id")).not.toBe("bad id\twith spaces");
    expect(replaced.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("answers an unknown route with 404 in the envelope", async () => {
    const res = await call("GET", "/no-such-thing");
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ success: false, data: null });
    expect(res.body.errors?.length).toBeGreaterThan(0);
  });

  it("answers a wrong method on a known path with 405 and Allow", async () => {
    const res = await call("DELETE", "/health");
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toContain("GET");
    expect(res.body.success).toBe(false);
  });

  it("rejects malformed JSON with 400", async () => {
    const res = await call("POST", "/platform/tenants", {
      headers: { ...PLATFORM, "content-type": "application/json" },
      body: "{not json",
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, data: null });
  });

  it("rejects a non-JSON write with 415", async () => {
    const res = await call("POST", "/platform/tenants", {
      headers: { ...PLATFORM, "content-type": "text/plain" },
      body: "name=x",
    });
    expect(res.status).toBe(415);
    expect(res.body.success).toBe(false);
  });

  it("lists one message per failed field and rejects unknown fields", async () => {
    const res = await call("POST", "/platform/tenants", {
      headers: PLATFORM,
      body: { plan: "gold", owner: { email: "not-an-email", password: "short", name: "A" }, colour: "red" },
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe("Validation failed");
    expect(res.body.errors).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^name: /),
        expect.stringMatching(/^plan: /),
        expect.stringMatching(/^owner\.email: /),
        expect.stringMatching(/^owner\.password: /),
        "colour: unknown field",
      ]),
    );
  });

  it("rejects bad page, pageSize and sort with 400", async () => {
    for (const query of ["page=0", "pageSize=0", "pageSize=101", "page=abc", "sort=password", "sort=-nope"]) {
      const res = await call("GET", `/platform/tenants?${query}`, { headers: PLATFORM });
      expect(res.status, query).toBe(400);
      expect(res.body.success).toBe(false);
    }
  });

  it("rejects a body over 1 MiB with 413, with or without Content-Length", async () => {
    const big = JSON.stringify({ name: "x".repeat(1024 * 1024 + 10), plan: "starter" });
    const declared = await call("POST", "/platform/tenants", { headers: PLATFORM, body: big });
    expect(declared.status).toBe(413);
    const chunk = new TextEncoder().encode("x".repeat(64 * 1024));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 20) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const streamed = await call("POST", "/platform/tenants", {
      headers: { ...PLATFORM, "content-type": "application/json" },
      body: stream,
      duplex: "half",
    } as never);
    expect(streamed.status).toBe(413);
    expect(streamed.body.success).toBe(false);
  });

  it("turns an unexpected throw into a 500 without internals, carrying the request id", async () => {
    // The fault is injected into a test-only app, never into a shipped route.
    const app = createApp();
    app.get("/api/v1/__fault", () => {
      throw new Error("SQLITE_ERROR: no such column: secret_column at select * from users");
    });
    const response = await app.request(`${BASE}/__fault`, { headers: { "x-request-id": "fault-1" } }, env);
    const body = await response.json<Envelope>();
    expect(response.status).toBe(500);
    expect(body.success).toBe(false);
    expect(body.message).toContain("fault-1");
    expect(JSON.stringify(body)).not.toMatch(/SQLITE|secret_column|select/i);
  });
});

describe("production guard", () => {
  const real = "a-real-secret-that-is-long-enough-0123456789";

  it("refuses to serve outside development while secrets hold development values", async () => {
    const app = createApp();
    const response = await fetchApi(new Request(`${BASE}/health`), (request) =>
      app.fetch(request, { ...env, ENVIRONMENT: "production" }),
    );
    const body = await response.json<Envelope>();
    expect(response.status).toBe(503);
    expect(body.success).toBe(false);
  });

  it("refuses development secrets on a deployed host even when a wrong deploy says ENVIRONMENT=development", async () => {
    const app = createApp();
    const response = await fetchApi(new Request("https://warehouse.example.com/api/v1/health"), (request) =>
      app.fetch(request, env),
    );
    expect(env.ENVIRONMENT).toBe("development");
    expect(response.status).toBe(503);
  });

  it("keeps development values out of the deployable configuration", () => {
    // A plain `wrangler deploy` uploads the top-level [vars]: none may exist.
    const topLevel = wranglerToml.slice(0, wranglerToml.search(PRODUCTION_SECTION));
    expect(topLevel).not.toMatch(/^\[vars\]/m);
    expect(wranglerToml).not.toMatch(/dev-only-/);
  });

  it("names the development and production Workers apart: a plain `wrangler deploy` cannot replace production", () => {
    const production = wranglerToml.search(PRODUCTION_SECTION);
    const nameIn = (section: string) => /^name = "([^"]+)"$/m.exec(section)?.[1];
    const topLevel = nameIn(wranglerToml.slice(0, production));
    expect(topLevel).toBeTruthy();
    expect(nameIn(wranglerToml.slice(production))).toBe("warehouse-api");
    expect(topLevel).not.toBe("warehouse-api");
  });

  it("serves in production once real secrets are set", async () => {
    const app = createApp();
    const response = await fetchApi(new Request("https://warehouse.example.com/api/v1/health"), (request) =>
      app.fetch(request, {
        ...env,
        ENVIRONMENT: "production",
        JWT_SECRET: real,
        PLATFORM_ADMIN_TOKEN: real,
        WEBHOOK_SECRET_KEY: real,
      }),
    );
    expect(response.status).toBe(200);
  });
});

describe("OpenAPI document and docs page", () => {
  it("serves an OpenAPI 3.1 document that lists health", async () => {
    const doc = await servedDocument();
    expect(doc.openapi).toBe("3.1.0");
    expect(Object.keys(doc.paths)).toContain("/api/v1/health");
    // Server URL + path must be the real URL (no doubled /api/v1).
    expect(doc.servers?.[0]?.url).toBe("http://localhost");
  });

  it("serves an HTML reference page that loads the document", async () => {
    const response = await call("GET", "/docs");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/html");
    expect(String(response.body.data)).toContain("/api/v1/openapi.json");
  });
});

describe("browser clients (CORS)", () => {
  it("answers a preflight for any origin with the API's headers, without credentials", async () => {
    const res = await fetchApi(
      new Request(`${BASE}/products`, {
        method: "OPTIONS",
        headers: {
          origin: "https://scanner.example.com",
          "access-control-request-method": "POST",
          "access-control-request-headers": "x-api-key, idempotency-key, content-type",
        },
      }),
    );
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-allow-headers")).toMatch(/Idempotency-Key/);
  });

  it("exposes the headers clients read (request id, rate limits, ETag...)", async () => {
    const res = await call("GET", "/health", { headers: { origin: "https://scanner.example.com" } });
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-expose-headers")).toMatch(
      /X-Request-Id.*ETag.*X-RateLimit-Remaining/,
    );
  });
});
