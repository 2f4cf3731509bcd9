// The scenario every client runs against the live API (see clients/README.md), here for TypeScript.
import { readFileSync } from "node:fs";
import {
  RateLimitError,
  verifyWebhook,
  WarehouseApiError,
  WarehouseClient,
  WebhookVerificationError,
} from "@warehouse-api/client";
import { describe, expect, it } from "vitest";
import { BASE_URL, env, proxy, unique } from "./harness.js";

const client = new WarehouseClient({ baseUrl: BASE_URL, apiKey: env("WAREHOUSE_API_KEY") });
const TOKEN = "U0hBUkRfMC4wMDAwMDAwMC0wMDAwMDAwMC0wMDAwMDAwMC0wMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMA";

async function failure(call: Promise<unknown>): Promise<WarehouseApiError> {
  try {
    await call;
  } catch (error) {
    if (error instanceof WarehouseApiError) return error;
    throw error;
  }
  throw new Error("the call succeeded");
}

/** A new product with `quantity` units at a new location. */
async function stockedProduct(quantity: number) {
  const u = unique();
  const warehouse = await client.warehouses.create({ code: `WH-${u}`, name: "Feed" });
  const location = await client.locations.create({
    warehouseId: warehouse.id,
    code: `B-${u}`,
    name: "Bin",
    type: "bin",
  });
  const product = await client.products.create({ sku: `ST-${u}`, name: "Stocked" });
  const adjusted = await client.inventory.adjust({
    productId: product.id,
    locationId: location.id,
    quantity,
    reason: "received",
  });
  return { product, location, adjusted };
}

describe("TypeScript client against the live API", () => {
  it("has a method for every operation of the API", () => {
    const table = JSON.parse(readFileSync(env("WAREHOUSE_OPERATIONS"), "utf8")) as {
      operations: {
        operationId: string;
        group: string;
        method: string;
        paged: boolean;
        cursor: boolean;
        csv: boolean;
      }[];
    };
    const groups = client as unknown as Record<string, Record<string, unknown>>;
    const missing = table.operations.flatMap(({ operationId, group, method, paged, cursor, csv }) =>
      [method, ...(paged || cursor ? [`${method}All`] : []), ...(csv ? [`${method}Csv`] : [])]
        .filter((name) => typeof groups[group]?.[name] !== "function")
        .map((name) => `${operationId} -> ${group}.${name}`),
    );
    expect(missing).toEqual([]);
    expect(table.operations.length).toBeGreaterThan(50);
  });

  it("creates a product, stocks it, sells it and ships it", async () => {
    const u = unique();
    const warehouse = await client.warehouses.create({ code: `WH-${u}`, name: "Main" });
    const location = await client.locations.create({
      warehouseId: warehouse.id,
      code: `A-${u}`,
      name: "Aisle A",
      type: "bin",
    });
    const product = await client.products.create({ sku: `TS-${u}`, name: "Widget", price: 19.99 });
    expect(product).toMatchObject({ sku: `TS-${u}`, name: "Widget", price: 19.99, status: "Active" });
    // @ts-expect-error the published types know a product's fields: this line fails if they degrade to `any`
    expect(product.notAField).toBeUndefined();

    const adjusted = await client.inventory.adjust({
      productId: product.id,
      locationId: location.id,
      quantity: 10,
      reason: "received",
    });
    expect(adjusted.stockLevel).toMatchObject({ onHand: 10, reserved: 0, available: 10 });

    const order = await client.orders.createSales({
      customerId: crypto.randomUUID(),
      lines: [{ productId: product.id, quantity: 3, price: 19.99 }],
      shippingAddress: { street: "1 Main St", city: "Springfield", zip: "12345" },
    });
    expect(order.status).toBe("pending");
    const reserved = await client.inventory.listStock({ productId: product.id });
    expect(reserved.items[0]).toMatchObject({ onHand: 10, reserved: 3, available: 7 });

    const shipped = await client.orders.updateStatus(order.id, {
      status: "shipped",
      trackingNumber: "1Z999",
    });
    expect(shipped).toMatchObject({ status: "shipped", trackingNumber: "1Z999" });
    const stock = await client.inventory.listStock({ productId: product.id });
    expect(stock.items[0]).toMatchObject({ onHand: 7, reserved: 0, available: 7 });
  });

  it("downloads a package label as its bytes", async () => {
    const u = unique();
    const warehouse = await client.warehouses.create({ code: `WL-${u}`, name: "Labels" });
    const location = await client.locations.create({
      warehouseId: warehouse.id,
      code: `L-${u}`,
      name: "Bin",
      type: "bin",
    });
    const product = await client.products.create({ sku: `LB-${u}`, name: "Labelled" });
    await client.inventory.adjust({
      productId: product.id,
      locationId: location.id,
      quantity: 5,
      reason: "received",
    });
    const order = await client.orders.createSales({
      customerId: crypto.randomUUID(),
      warehouseId: warehouse.id,
      lines: [{ productId: product.id, quantity: 2, price: 1 }],
      shippingAddress: { street: "1 Main St", city: "Springfield", zip: "12345" },
    });
    await client.orders.updateStatus(order.id, { status: "confirmed" });
    const line = order.lines[0];
    if (!line) throw new Error("the order has a line");
    const shipment = await client.orders.createShipment(order.id, {
      packages: [{ weight: { value: 1.5, unit: "kg" }, lines: [{ orderLineId: line.id, quantity: 2 }] }],
    });
    const pkg = shipment.packages[0];
    if (!pkg) throw new Error("the shipment has a package");
    await client.shipments.label(shipment.id, {
      trackingNumbers: [{ packageId: pkg.id, trackingNumber: `1Z${u}` }],
    });
    const label = await client.shipments.getLabel(shipment.id, pkg.id);
    expect(label).toBeInstanceOf(Uint8Array);
    const text = new TextDecoder().decode(label);
    expect(text.startsWith("^XA")).toBe(true);
    expect(text).toContain(`^FD(00)${pkg.sscc}^FS`);
    expect(text).toContain(`^FD1Z${u}^FS`);
  });

  it("uploads a file, imports it as a job and waits for it; reads its error report and an export", async () => {
    const u = unique();
    const warehouse = await client.warehouses.create({ code: `WJ-${u}`, name: "Jobs" });
    const location = await client.locations.create({
      warehouseId: warehouse.id,
      code: `J-${u}`,
      name: "J",
      type: "bin",
    });
    const product = await client.products.create({ sku: `TSJ-${u}`, name: "Imported" });
    const csv = `sku,locationCode,quantity,reason\n${product.sku},${location.code},5,received\nNOPE-${u},${location.code},1,received\n`;
    const job = await client.importFile("stock_import", csv, { pollIntervalMs: 200, filename: "stock.csv" });
    expect(job).toMatchObject({ status: "succeeded", processed: 2, failed: 1 });
    expect(job.errors).toEqual([{ line: 3, errors: [`sku: no product has SKU NOPE-${u}`] }]);
    expect(await client.jobResult(job.id)).toBe(`line,errors\r\n3,sku: no product has SKU NOPE-${u}\r\n`);
    const stock = await client.inventory.listStock({ productId: product.id });
    expect(stock.items[0]).toMatchObject({ onHand: 5 });
    const exported = await client.jobs.create({ type: "stock_export" });
    const done = await client.waitForJob(exported.id, { pollIntervalMs: 200 });
    expect(done.status).toBe("succeeded");
    expect(await client.jobResult(done.id)).toContain(`${product.sku},WJ-${u},J-${u},,5,0,5\r\n`);
  });

  it("walks a list across three pages with the iterator", async () => {
    const category = `cat-${unique()}`;
    for (let i = 0; i < 5; i++) {
      await client.products.create({ sku: `PG-${category}-${i}`, name: `Paged ${i}`, category });
    }
    await proxy.clearLog();
    const skus: string[] = [];
    for await (const product of client.products.listAll({ category, pageSize: 2, sort: "sku" })) {
      skus.push(product.sku);
    }
    expect(skus).toEqual([0, 1, 2, 3, 4].map((i) => `PG-${category}-${i}`));
    const pages = (await proxy.log()).filter((entry) => entry.path.startsWith("/api/v1/products?"));
    expect(pages.map((entry) => new URL(entry.path, BASE_URL).searchParams.get("page"))).toEqual([
      "1",
      "2",
      "3",
    ]);
  });

  it("throws a 404 as WarehouseApiError with the request id", async () => {
    await proxy.clearLog();
    const error = await failure(client.products.get(crypto.randomUUID()));
    expect(error).toMatchObject({ status: 404, code: "NOT_FOUND", message: "Product not found" });
    const [logged] = await proxy.log();
    expect(error.requestId).toBeTruthy();
    expect(error.requestId).toBe(logged?.requestId);
  });

  it("throws a 400 with one message per invalid field", async () => {
    const error = await failure(client.products.create({ sku: " ", name: "" }));
    expect(error.status).toBe(400);
    expect(error.code).toBe("VALIDATION_FAILED");
    expect(error.errors).toEqual(expect.arrayContaining(["sku: SKU is required", "name: Name is required"]));
  });

  it("retries a create after a dropped connection and creates it exactly once", async () => {
    const sku = `DROP-${unique()}`;
    await proxy.dropResponse(sku);
    const product = await client.products.create({ sku, name: "Dropped once" });
    expect(product.sku).toBe(sku);

    const { requests } = await proxy.requestsMatching(sku);
    expect(requests).toHaveLength(2);
    expect(requests[0]).toMatchObject({ dropped: true, replayed: false });
    expect(requests[1]).toMatchObject({ dropped: false, replayed: true });
    expect(requests[0]?.idempotencyKey).toBeTruthy();
    expect(requests[1]?.idempotencyKey).toBe(requests[0]?.idempotencyKey);
    const found = await client.products.list({ search: sku });
    expect(found.totalCount).toBe(1);
  });

  it("retries a status change after a dropped connection and applies it once", async () => {
    // A PATCH carries an Idempotency-Key like a create: the server replays the first answer to the retry, where
    // applying "shipped" again would be refused (409: the order is already shipped).
    const { product } = await stockedProduct(5);
    const order = await client.orders.createSales({
      customerId: crypto.randomUUID(),
      lines: [{ productId: product.id, quantity: 2, price: 1 }],
      shippingAddress: { street: "1 Main St", city: "Springfield", zip: "12345" },
    });
    const tracking = `1Z${unique()}`;
    await proxy.dropResponse(tracking);
    const shipped = await client.orders.updateStatus(order.id, {
      status: "shipped",
      trackingNumber: tracking,
    });
    expect([shipped.status, shipped.trackingNumber]).toEqual(["shipped", tracking]);

    const { requests } = await proxy.requestsMatching(tracking);
    expect(requests).toHaveLength(2);
    expect(requests[0]).toMatchObject({ dropped: true, replayed: false, status: 200 });
    expect(requests[1]).toMatchObject({ dropped: false, replayed: true, status: 200 });
    expect(requests[0]?.idempotencyKey).toBeTruthy();
    expect(requests[1]?.idempotencyKey).toBe(requests[0]?.idempotencyKey);
    expect((await client.inventory.listStock({ productId: product.id })).items[0]).toMatchObject({
      onHand: 3,
    });
  });

  it("logs in, refreshes the access token before it expires and rotates the refresh token", async () => {
    // Refreshing 3600 s before expiry makes every call after the login refresh first (tokens live 1 hour).
    const user = new WarehouseClient({
      baseUrl: BASE_URL,
      email: env("WAREHOUSE_EMAIL"),
      password: env("WAREHOUSE_PASSWORD"),
      tenantId: env("WAREHOUSE_TENANT_ID"),
      refreshBeforeExpirySeconds: 3600,
    });
    await proxy.clearLog();
    const me = await user.auth.me();
    expect(me.type).toBe("user");
    await user.products.list({ pageSize: 1 });
    // A second refresh only succeeds with the rotated token: reusing the first would revoke the login.
    await user.products.list({ pageSize: 1 });
    const calls = (await proxy.log()).map(
      (entry) => `${entry.method} ${entry.path.split("?")[0]} ${entry.status}`,
    );
    expect(calls).toEqual([
      "POST /api/v1/auth/login 200",
      "GET /api/v1/auth/me 200",
      "POST /api/v1/auth/refresh 200",
      "GET /api/v1/products 200",
      "POST /api/v1/auth/refresh 200",
      "GET /api/v1/products 200",
    ]);
  });

  it("holds stock, lists the hold and releases it", async () => {
    const { product, location } = await stockedProduct(10);
    const hold = await client.inventory.createHold({
      productId: product.id,
      quantity: 4,
      locationId: location.id,
      expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
      reference: `cart-${product.sku}`,
    });
    expect(hold).toMatchObject({ productId: product.id, quantity: 4, status: "active" });
    const held = await client.inventory.listStock({ productId: product.id });
    expect(held.items[0]).toMatchObject({ onHand: 10, available: 6 });
    const listed = await client.inventory.listHolds({ reference: `cart-${product.sku}` });
    expect(listed.items.map((h) => h.id)).toEqual([hold.id]);

    const released = await client.inventory.releaseHold(hold.id);
    expect(released).toMatchObject({ id: hold.id, status: "released" });
    const freed = await client.inventory.listStock({ productId: product.id });
    expect(freed.items[0]).toMatchObject({ onHand: 10, available: 10 });
  });

  it("follows the events feed from a stored cursor: every later event once, across pages and a restart", async () => {
    const type = "inventory.adjusted";
    const caughtUp = client.events.listAll({ type });
    await caughtUp.toArray();
    const stored = caughtUp.cursor;
    expect(stored).toBeTruthy();

    const { product, location } = await stockedProduct(1);
    for (let i = 0; i < 4; i++) {
      await client.inventory.adjust({
        productId: product.id,
        locationId: location.id,
        quantity: 1,
        reason: "received",
      });
    }
    // Pages of 2 events; the reader stops after the third event (inside the second page) and restarts.
    const first = client.events.listAll({ after: stored, type, limit: 2 });
    const seen: string[] = [];
    for await (const event of first) {
      seen.push(event.id);
      if (seen.length === 3) break;
    }
    const resumed = client.events.listAll({ after: first.cursor, type, limit: 2 });
    for (const event of await resumed.toArray()) seen.push(event.id);

    expect(seen).toHaveLength(5);
    expect(new Set(seen).size).toBe(5);
    const again = client.events.listAll({ after: resumed.cursor, type });
    expect(await again.toArray()).toEqual([]);
  });

  it("reads stock as it was at an instant (asOf)", async () => {
    const { product, location, adjusted } = await stockedProduct(10);
    await client.inventory.adjust({
      productId: product.id,
      locationId: location.id,
      quantity: 5,
      reason: "received",
    });
    const then = await client.inventory.listStock({
      productId: product.id,
      asOf: adjusted.movement.createdAt,
    });
    expect(then.items).toEqual([expect.objectContaining({ productId: product.id, onHand: 10 })]);
    const now = await client.inventory.listStock({ productId: product.id });
    expect(now.items[0]).toMatchObject({ onHand: 15 });
  });

  it("carries the Consistency-Token of the last response into the next request", async () => {
    // A token the API accepts (SHARD_0 at bookmark zero, base64url): a made-up string would be a 400.
    await proxy.sendConsistencyToken(TOKEN);
    await client.products.list({ pageSize: 1 });
    await proxy.clearLog();
    await client.products.list({ pageSize: 1 });
    const [next] = await proxy.log();
    expect(next?.consistencyToken).toBe(TOKEN);
  });

  it("drops a Consistency-Token sealed under a rotated key and heals in one call", async () => {
    // The harness seals this token with the server's code under the key it had before WEBHOOK_SECRET_KEY rotated.
    const rotated = env("WAREHOUSE_ROTATED_CONSISTENCY_TOKEN");
    await proxy.sendConsistencyToken(rotated);
    await client.products.list({ pageSize: 1 });
    await proxy.clearLog();
    const page = await client.products.list({ pageSize: 1 });
    expect(page.items.length).toBeGreaterThan(0);
    const [refused, retried] = await proxy.log();
    expect(refused).toMatchObject({ consistencyToken: rotated, status: 400 });
    expect(retried).toMatchObject({ consistencyToken: null, status: 200 });
    // The next call carries the token the healed answer sealed under the current key.
    await proxy.clearLog();
    await client.products.list({ pageSize: 1 });
    const [next] = await proxy.log();
    expect(next?.status).toBe(200);
    expect(next?.consistencyToken).toMatch(/^[A-Za-z0-9_-]{100,}$/);
    expect(next?.consistencyToken).not.toBe(rotated);
  });

  it("heals a create refused for its rotated Consistency-Token with the same Idempotency-Key, creating it once", async () => {
    const rotated = env("WAREHOUSE_ROTATED_CONSISTENCY_TOKEN");
    await proxy.sendConsistencyToken(rotated);
    await client.products.list({ pageSize: 1 });
    await proxy.clearLog();
    const sku = `ROT-${unique()}`;
    expect((await client.products.create({ sku, name: "Healed write" })).sku).toBe(sku);
    const [refused, retried] = await proxy.log();
    expect(refused).toMatchObject({ method: "POST", consistencyToken: rotated, status: 400 });
    expect(retried).toMatchObject({ method: "POST", consistencyToken: null, status: 201 });
    expect(retried?.idempotencyKey).toBe(refused?.idempotencyKey);
    expect((await client.products.list({ search: sku })).totalCount).toBe(1);
  });

  it("verifies a webhook delivery's signature and refuses a tampered one", async () => {
    const webhook = await client.webhooks.create({
      url: env("WAREHOUSE_WEBHOOK_URL"),
      events: ["product.created"],
    });
    await client.webhooks.test(webhook.id);
    const [delivery] = await proxy.webhooks("webhook.test", 30);
    if (!delivery) throw new Error("no webhook delivery arrived within 30 s");

    const event = verifyWebhook(webhook.secret, delivery.body, delivery.headers);
    if (event.type !== "webhook.test") throw new Error(`delivered ${event.type}`);
    expect(event.data.webhookId).toBe(webhook.id);

    const tampered = delivery.body.replace("webhook.test", "webhook.fake");
    expect(() => verifyWebhook(webhook.secret, tampered, delivery.headers)).toThrow(WebhookVerificationError);
    const stale = { ...delivery.headers, "webhook-timestamp": String(Math.floor(Date.now() / 1000) - 600) };
    expect(() => verifyWebhook(webhook.secret, delivery.body, stale)).toThrow(WebhookVerificationError);
  });

  it("reads an order's event from a verified webhook delivery and from the feed, typed per event", async () => {
    const type = "order.created";
    const caughtUp = client.events.listAll({ type });
    await caughtUp.toArray();
    const webhook = await client.webhooks.create({ url: env("WAREHOUSE_WEBHOOK_URL"), events: [type] });
    const { product } = await stockedProduct(5);
    const order = await client.orders.createSales({
      customerId: crypto.randomUUID(),
      lines: [{ productId: product.id, quantity: 2, price: 3 }],
      shippingAddress: { street: "1 Main St", city: "Springfield", zip: "12345" },
    });

    const delivery = (await proxy.webhooks(type, 60)).find((d) => d.body.includes(order.id));
    if (!delivery) throw new Error("no order.created delivery of the order arrived within 60 s");
    const event = verifyWebhook(webhook.secret, delivery.body, delivery.headers);
    // Narrowed by its type, `data` is an Order: these lines do not compile if the union degrades.
    if (event.type !== "order.created") throw new Error(`delivered ${event.type}`);
    expect(event.data.number).toBe(order.number);
    expect(event.data.lines[0]?.quantity).toBe(2);

    const [item] = await client.events.listAll({ after: caughtUp.cursor, type }).toArray();
    if (item?.type !== "order.created") throw new Error(`the feed read ${item?.type}`);
    expect(item.data.number).toBe(order.number);
    expect(item.id).toBe(delivery.headers["webhook-id"]);
  });

  // Last: the harness spent this tenant's budget when the run began, so the wait is the rest of that minute.
  it("waits out a Starter tenant's 429 through Retry-After", async () => {
    const key = env("WAREHOUSE_STARTER_API_KEY");
    const impatient = new WarehouseClient({ baseUrl: BASE_URL, apiKey: key, maxRetries: 0 });
    let refused: RateLimitError | null = null;
    for (let i = 0; i < 200 && !refused; i++) {
      refused = await impatient.products.list({ pageSize: 1 }).then(
        () => null,
        (error: unknown) => (error instanceof RateLimitError ? error : Promise.reject(error)),
      );
    }
    expect(refused?.code).toBe("RATE_LIMITED");
    expect(refused?.retryAfter).toBeGreaterThan(0);

    const patient = new WarehouseClient({ baseUrl: BASE_URL, apiKey: key });
    const started = Date.now();
    const page = await patient.products.list({ pageSize: 1 });
    expect(page.page).toBe(1);
    expect(Date.now() - started).toBeGreaterThanOrEqual(((refused?.retryAfter ?? 0) - 1) * 1000);
  });
});
