// Typed models, the error hierarchy, the call's deadline, Retry-After's cap, which 500s are retried, cancellation
// and the User-Agent: against the live API, with the harness proxy as the local test server of the faults.
import {
  ApiConnectionError,
  ApiTimeoutError,
  AuthenticationError,
  ConflictError,
  type components,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  ServerError,
  ValidationError,
  WarehouseApiError,
  WarehouseClient,
} from "@warehouse-api/client";
import { describe, expect, it } from "vitest";
import { BASE_URL, env, proxy, unique } from "./harness.js";

const client = new WarehouseClient({ baseUrl: BASE_URL, apiKey: env("WAREHOUSE_API_KEY") });

async function rejection(call: Promise<unknown>): Promise<unknown> {
  return call.then(
    () => {
      throw new Error("the call succeeded");
    },
    (error: unknown) => error,
  );
}

const newProduct = () => client.products.create({ sku: `TY-${unique()}`, name: "Typed", price: 2.5 });

describe("TypeScript client: types, errors, deadlines, retries, cancellation", () => {
  it("returns a typed product: its fields read without a cast", async () => {
    const product: components["schemas"]["Product"] = await newProduct();
    const status: "Active" | "Inactive" = product.status;
    expect([status, product.price, product.reorderPoint]).toEqual(["Active", 2.5, 0]);
  });

  it("throws each error as its own subclass, with everything in its string form", async () => {
    expect(await rejection(client.products.get(crypto.randomUUID()))).toBeInstanceOf(NotFoundError);
    const invalid = await rejection(client.products.create({ sku: " ", name: "" }));
    expect(invalid).toBeInstanceOf(ValidationError);
    const text = String(invalid);
    expect(text).toMatch(
      /^ValidationError: 400 VALIDATION_FAILED: Validation failed \[.*sku: SKU is required/,
    );
    expect(text).toContain(`(request id ${(invalid as ValidationError).requestId})`);
    const stranger = new WarehouseClient({ baseUrl: BASE_URL, apiKey: "wms_live_not_a_real_key" });
    expect(await rejection(stranger.products.list())).toBeInstanceOf(AuthenticationError);
    const reader = await client.apiKeys.create({ name: `reader-${unique()}`, scopes: ["read:products"] });
    const readOnly = new WarehouseClient({ baseUrl: BASE_URL, apiKey: reader.key });
    expect(
      await rejection(readOnly.products.create({ sku: `NO-${unique()}`, name: "Refused" })),
    ).toBeInstanceOf(PermissionDeniedError);
    const taken = await newProduct();
    expect(await rejection(client.products.create({ sku: taken.sku, name: "Twice" }))).toBeInstanceOf(
      ConflictError,
    );
    const nowhere = new WarehouseClient({ baseUrl: "http://127.0.0.1:9", apiKey: "k", maxRetries: 0 });
    const unreachable = await rejection(nowhere.products.list());
    expect(unreachable).toBeInstanceOf(ApiConnectionError);
    expect(unreachable).not.toBeInstanceOf(ApiTimeoutError);
    expect(unreachable).toBeInstanceOf(WarehouseApiError);
  });

  it("retries a safe 500 and not an unsafe one", async () => {
    const product = await newProduct();
    const read = `GET /api/v1/products/${product.id}`;
    await proxy.fault({ match: read, status: 500 });
    expect((await client.products.get(product.id)).id).toBe(product.id);
    expect(await proxy.faultSeen(read)).toBe(2);

    // A PATCH carries an Idempotency-Key, so it is retried too.
    const patch = `PATCH /api/v1/products/${product.id}`;
    await proxy.fault({ match: patch, status: 500 });
    expect((await client.products.patch(product.id, { name: "Patched once" })).name).toBe("Patched once");
    expect(await proxy.faultSeen(patch)).toBe(2);

    // A login the server cannot de-duplicate is not repeated.
    const login = "POST /api/v1/auth/login";
    await proxy.fault({ match: login, status: 500 });
    const credentials = { email: env("WAREHOUSE_EMAIL"), password: env("WAREHOUSE_PASSWORD") };
    const failed = await rejection(client.auth.login(credentials));
    expect(failed).toBeInstanceOf(ServerError);
    expect(await proxy.faultSeen(login)).toBe(1);
  });

  it("ends a call stuck behind a long Retry-After at its deadline, at once", async () => {
    const product = await newProduct();
    const read = `GET /api/v1/products/${product.id}`;
    await proxy.fault({ match: read, status: 429, retryAfter: 30, times: 10 });
    let started = Date.now();
    const limited = await rejection(client.products.get(product.id, { timeoutMs: 3000 }));
    expect(limited).toBeInstanceOf(RateLimitError);
    expect((limited as RateLimitError).retryAfter).toBe(30);
    expect(Date.now() - started).toBeLessThan(3000);
    expect(await proxy.faultSeen(read)).toBe(1);

    // Within the deadline but beyond the cap: surfaced at once too.
    const capped = new WarehouseClient({
      baseUrl: BASE_URL,
      apiKey: env("WAREHOUSE_API_KEY"),
      maxRetryAfterMs: 5000,
    });
    await proxy.fault({ match: read, status: 429, retryAfter: 10, times: 10 });
    started = Date.now();
    expect(await rejection(capped.products.get(product.id))).toBeInstanceOf(RateLimitError);
    expect(Date.now() - started).toBeLessThan(3000);

    // A short one is waited out.
    await proxy.fault({ match: read, status: 429, retryAfter: 1, times: 1 });
    started = Date.now();
    expect((await client.products.get(product.id)).id).toBe(product.id);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
  });

  it("is cancelled by its AbortSignal, and one deadline covers every attempt", async () => {
    const product = await newProduct();
    const read = `GET /api/v1/products/${product.id}`;
    await proxy.fault({ match: read, hang: true, times: 10 });
    const started = Date.now();
    const reason = new Error("the user left the page");
    const aborted = await rejection(client.products.get(product.id, { signal: abortAfter(500, reason) }));
    expect(aborted).toBe(reason);
    expect(Date.now() - started).toBeLessThan(2000);

    const patient = new WarehouseClient({
      baseUrl: BASE_URL,
      apiKey: env("WAREHOUSE_API_KEY"),
      attemptTimeoutMs: 500,
      maxRetries: 10,
    });
    await proxy.fault({ match: read, hang: true, times: 10 });
    const begun = Date.now();
    expect(await rejection(patient.products.get(product.id, { timeoutMs: 2500 }))).toBeInstanceOf(
      ApiTimeoutError,
    );
    expect(Date.now() - begun).toBeLessThan(3500);
    expect(await proxy.faultSeen(read)).toBeGreaterThanOrEqual(2);
  });

  it("sends its User-Agent", async () => {
    await proxy.clearLog();
    await client.health.get();
    const [entry] = await proxy.log();
    expect(entry?.userAgent).toMatch(/^warehouse-api-typescript\/\d+\.\d+\.\d+ \(node\/[\d.]+\)$/);
  });
});

function abortAfter(ms: number, reason: Error): AbortSignal {
  const controller = new AbortController();
  setTimeout(() => controller.abort(reason), ms);
  return controller.signal;
}
