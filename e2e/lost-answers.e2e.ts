import { describe, expect, it } from "vitest";
import { createTenant, ok, type TestTenant } from "./support/api";
import { expectWellBehaved, openPage, signIn } from "./support/browser";
import { mainWithBins } from "./support/seed";

// Every page of every browser test runs on a network that loses the first answer of each keyed write
// (e2e/support/browser.ts): the server acts, the page sees a network failure, retries with the same
// Idempotency-Key and gets the server's replay. Each test's checks of stock, orders and counts prove one effect;
// this file spells it out for the writes issue #45 names, through the API.

/** MUG-1 with 10 in A1, and a purchase order of 10 SOAP-1 ordered into MAIN. */
async function warehouse(tenant: TestTenant) {
  const { api } = tenant;
  const { main, a1, a2 } = await mainWithBins(tenant);
  const mug = await ok(api.POST("/api/v1/products", { body: { sku: "MUG-1", name: "Mug", price: 8 } }));
  const soap = await ok(api.POST("/api/v1/products", { body: { sku: "SOAP-1", name: "Soap", price: 4 } }));
  await ok(
    api.POST("/api/v1/inventory/adjustments", {
      body: { productId: mug.id, locationId: a1.id, quantity: 10, reason: "received" },
    }),
  );
  const po = await ok(
    api.POST("/api/v1/orders/purchase", {
      body: {
        supplier: "Acme",
        warehouseId: main.id,
        lines: [{ productId: soap.id, quantity: 10, cost: 1 }],
      },
    }),
  );
  await ok(
    api.PATCH("/api/v1/orders/{id}/status", { params: { path: { id: po.id } }, body: { status: "ordered" } }),
  );
  return { main, a1, a2, mug, soap, po };
}

async function movements({ api }: TestTenant, productId: string) {
  const page = await ok(
    api.GET("/api/v1/inventory/movements", { params: { query: { productId, pageSize: 100 } } }),
  );
  return page.items.map((m) => [m.reason, m.delta]);
}

async function onHandByLocation({ api }: TestTenant, productId: string) {
  const page = await ok(
    api.GET("/api/v1/inventory/stock", { params: { query: { productId, pageSize: 100 } } }),
  );
  return Object.fromEntries(page.items.flatMap((l) => ("onHand" in l ? [[l.locationCode, l.onHand]] : [])));
}

describe("a write whose answer is lost acts once", () => {
  it("a receipt of 10 retried is 10, not 20; so are an adjustment, a transfer, an order and its status", async () => {
    const tenant = await createTenant();
    const { mug, soap, po } = await warehouse(tenant);
    const page = await openPage(`/app/orders/${po.id}`);
    await signIn(page, tenant.email, tenant.password);

    await page.getByRole("button", { name: "Receive" }).click();
    const receive = page.getByRole("dialog", { name: `Receive ${po.number}` });
    await receive.getByLabel("Into location").selectOption({ label: "MAIN · A1" });
    await receive.getByRole("button", { name: "Receive stock" }).click();
    await page.locator(".details .badge", { hasText: "received" }).waitFor();
    expect(await onHandByLocation(tenant, soap.id)).toEqual({ A1: 10 });
    expect(await movements(tenant, soap.id)).toEqual([["received", 10]]);

    await page.goto("/app/stock");
    await page.getByRole("button", { name: "Adjust MUG-1 at A1" }).click();
    const adjust = page.getByRole("dialog", { name: "Adjust MUG-1 at A1" });
    await adjust.getByLabel("Quantity").fill("-2");
    await adjust.getByLabel("Reason").selectOption("damaged");
    await adjust.getByRole("button", { name: "Adjust" }).click();
    await adjust.waitFor({ state: "detached" });
    await page.getByRole("button", { name: "Transfer MUG-1 from A1" }).click();
    const transfer = page.getByRole("dialog", { name: "Transfer MUG-1 at A1" });
    await transfer.getByLabel("Quantity").fill("5");
    await transfer.getByLabel("To location").selectOption({ label: "MAIN · A2" });
    await transfer.getByRole("button", { name: "Transfer" }).click();
    await transfer.waitFor({ state: "detached" });
    expect(await onHandByLocation(tenant, mug.id)).toEqual({ A1: 3, A2: 5 });
    expect((await movements(tenant, mug.id)).length).toBe(4); // received, damaged, and the transfer's two sides

    await page.goto("/app/orders");
    await page.getByRole("button", { name: "New sales order" }).click();
    const create = page.getByRole("dialog", { name: "New sales order" });
    await create.getByLabel("Street", { exact: true }).fill("1 Main St");
    await create.getByLabel("City", { exact: true }).fill("Springfield");
    await create.getByLabel("Postal code", { exact: true }).fill("62701");
    await create.getByLabel("SKU or barcode").fill("MUG-1");
    await create.getByLabel("Quantity").fill("3");
    await create.getByRole("button", { name: "Create order" }).click();
    await page.getByRole("heading", { name: /^Order SO-/, level: 1 }).waitFor();
    await page.getByRole("button", { name: "Mark confirmed" }).click();
    await page.locator(".details .badge", { hasText: "confirmed" }).waitFor();
    const sales = await ok(tenant.api.GET("/api/v1/orders", { params: { query: { type: "sales" } } }));
    expect(sales.items.map((o) => o.status)).toEqual(["confirmed"]);
    expect(await onHandByLocation(tenant, mug.id)).toEqual({ A1: 3, A2: 5 });
    const reserved = await ok(
      tenant.api.GET("/api/v1/inventory/stock", { params: { query: { productId: mug.id } } }),
    );
    expect(reserved.items.reduce((sum, l) => sum + ("reserved" in l ? l.reserved : 0), 0)).toBe(3);
    expectWellBehaved(page);
  });

  it("a write left unanswered is sent with the same key when the person submits it again", async () => {
    const tenant = await createTenant();
    const { mug } = await warehouse(tenant);
    const page = await openPage("/app/stock");
    await signIn(page, tenant.email, tenant.password);
    // The server acts on the first attempt; then the network is down for every retry of it.
    const keys: string[] = [];
    let down = true;
    await page.route("**/api/v1/inventory/adjustments", async (route) => {
      keys.push((await route.request().headerValue("idempotency-key")) ?? "none");
      if (keys.length === 1) await route.fetch();
      if (down) return route.abort("connectionreset");
      await route.continue();
    });
    await page.getByRole("button", { name: "Adjust MUG-1 at A1" }).click();
    const adjust = page.getByRole("dialog", { name: "Adjust MUG-1 at A1" });
    await adjust.getByLabel("Quantity").fill("4");
    await adjust.getByRole("button", { name: "Adjust" }).click();
    await adjust.getByRole("alert").getByText("The server cannot be reached").waitFor();
    expect(keys.length).toBeGreaterThan(1); // retried by itself first, with backoff
    down = false;
    await adjust.getByRole("button", { name: "Adjust" }).click();
    await adjust.waitFor({ state: "detached" });
    expect(new Set(keys).size).toBe(1);
    expect(await onHandByLocation(tenant, mug.id)).toEqual({ A1: 14 });

    // A new submit of the same change after an answer is a new write: the person meant it twice.
    await page.getByRole("button", { name: "Adjust MUG-1 at A1" }).click();
    await adjust.getByLabel("Quantity").fill("4");
    await adjust.getByRole("button", { name: "Adjust" }).click();
    await adjust.waitFor({ state: "detached" });
    expect(new Set(keys).size).toBe(2);
    expect(await onHandByLocation(tenant, mug.id)).toEqual({ A1: 18 });
    expectWellBehaved(page);
  });
});
