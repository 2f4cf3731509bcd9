import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { apiClient, createTenant, ok, type TestTenant } from "./support/api";
import {
  DEMO,
  expectAccessible,
  expectFitsPhone,
  expectHeaderOneRow,
  expectSpotless,
  openFromMenu,
  openPage,
  screenshot,
  signIn,
} from "./support/browser";
import { mainWithBins } from "./support/seed";

/** A warehouse with two bins, a mug in stock and a lot-tracked soap on a purchase order waiting to be received. */
async function warehouse(tenant: TestTenant) {
  const { api } = tenant;
  const { main, a1, a2 } = await mainWithBins(tenant);
  const mug = await ok(
    api.POST("/api/v1/products", { body: { sku: "MUG-1", name: "Mug", price: 8, cost: 3, reorderPoint: 2 } }),
  );
  const soap = await ok(
    api.POST("/api/v1/products", {
      body: { sku: "SOAP-1", name: "Dish soap", price: 4, cost: 1.5, tracking: "lot" },
    }),
  );
  await ok(
    api.POST("/api/v1/inventory/adjustments", {
      body: { productId: mug.id, locationId: a1.id, quantity: 10, reason: "received" },
    }),
  );
  const po = await ok(
    api.POST("/api/v1/orders/purchase", {
      body: {
        supplier: "Acme Supply",
        warehouseId: main.id,
        lines: [{ productId: soap.id, quantity: 12, cost: 1.5 }],
      },
    }),
  );
  await ok(
    api.PATCH("/api/v1/orders/{id}/status", { params: { path: { id: po.id } }, body: { status: "ordered" } }),
  );
  return { main, a1, a2, mug, soap, po };
}

/** The current levels of a product: location code, lot, on hand, reserved. */
async function levels({ api }: TestTenant, productId: string) {
  const page = await ok(
    api.GET("/api/v1/inventory/stock", { params: { query: { productId, pageSize: 100 } } }),
  );
  return page.items.flatMap((l) => ("reserved" in l ? [l] : []));
}

/** The demo tenant's API as its owner, for the test's own reads (the owner's session, not the screens'). */
async function demoApi() {
  const session = await ok(
    apiClient().POST("/api/v1/auth/login", { body: { email: DEMO.email, password: DEMO.password } }),
  );
  const tenant = session.user.memberships.find((m) => m.tenantName === "Demo Warehouse");
  if (!tenant) throw new Error("the demo owner has no Demo Warehouse");
  return apiClient({ authorization: `Bearer ${session.token}`, "x-tenant-id": tenant.tenantId });
}

type Api = Awaited<ReturnType<typeof demoApi>>;

/** On hand per location code of a product, from the API. */
async function onHandAt(api: Api, productId: string) {
  const page = await ok(
    api.GET("/api/v1/inventory/stock", { params: { query: { productId, pageSize: 100 } } }),
  );
  return Object.fromEntries(page.items.flatMap((l) => ("onHand" in l ? [[l.locationCode, l.onHand]] : [])));
}

describe("a day in the warehouse on the demo tenant, as npm run dev leaves it", () => {
  it("at 1366 px: receives the purchase order waiting at the dock, takes a sales order, checks stock and the ledger", {
    timeout: 300_000,
  }, async () => {
    const api = await demoApi();
    const [po] = (
      await ok(api.GET("/api/v1/orders", { params: { query: { type: "purchase", status: "ordered" } } }))
    ).items;
    if (!po) throw new Error("the demo tenant has no purchase order waiting");
    const order = await ok(api.GET("/api/v1/orders/{id}", { params: { path: { id: po.id } } }));
    const [bin] = (
      await ok(
        api.GET("/api/v1/locations", {
          params: { query: { warehouseId: order.warehouseId ?? undefined, search: "B-01-1" } },
        }),
      )
    ).items;
    if (!bin) throw new Error("no bin B-01-1");
    const products = new Map(
      await Promise.all(
        order.lines.map(
          async (l) =>
            [
              l.productId,
              await ok(api.GET("/api/v1/products/{id}", { params: { path: { id: l.productId } } })),
            ] as const,
        ),
      ),
    );
    const before = new Map(
      await Promise.all(
        order.lines.map(
          async (l) => [l.productId, (await onHandAt(api, l.productId))[bin.code] ?? 0] as const,
        ),
      ),
    );

    const page = await openPage("/app/");
    await signIn(page, DEMO.email, DEMO.password);
    await page.getByRole("heading", { name: "Dashboard", level: 1 }).waitFor();
    await page.getByText("On hand", { exact: true }).waitFor();
    await expectAccessible(page, "dashboard at 1366");
    await expectHeaderOneRow(page, "dashboard at 1366");

    // Receive every line into B-01-1, with a lot and its expiry for a lot-tracked product.
    await page.goto(`/app/orders/${po.id}`);
    await page.getByRole("heading", { name: `Order ${po.number}`, level: 1 }).waitFor();
    await expectAccessible(page, "purchase order at 1366");
    await page.getByRole("button", { name: "Receive", exact: true }).click();
    const receive = page.getByRole("dialog", { name: `Receive ${po.number}` });
    let lots = 0;
    for (const [index, line] of order.lines.entries()) {
      await receive.getByLabel("Into location").nth(index).selectOption(bin.id);
      if (products.get(line.productId)?.tracking === "lot") {
        await receive.getByLabel("Lot number").nth(lots).fill(`DAY-${index}`);
        await receive.getByLabel("Expires on").nth(lots).fill("2027-12-31");
        lots++;
      }
    }
    await expectAccessible(page, "receive dialog at 1366");
    await screenshot(page, "demo-day-receive");
    await receive.getByRole("button", { name: "Receive stock" }).click();
    await page.locator(".details .badge", { hasText: "received" }).waitFor();
    for (const line of order.lines)
      expect((await onHandAt(api, line.productId))[bin.code], products.get(line.productId)?.sku).toBe(
        (before.get(line.productId) ?? 0) + line.quantity,
      );

    // A sales order of 2 of a product with stock to spare, confirmed: 2 more reserved.
    const stock = await ok(api.GET("/api/v1/inventory/stock", { params: { query: { pageSize: 100 } } }));
    const stocked = stock.items.flatMap((l) => ("reserved" in l ? [l] : []));
    const spare = stocked.find((l) => l.available >= 10 && !l.lotNumber);
    if (!spare) throw new Error("no product with 10 available");
    const reservedOf = async () => {
      const page = await ok(
        api.GET("/api/v1/inventory/stock", {
          params: { query: { productId: spare.productId, pageSize: 100 } },
        }),
      );
      return page.items.reduce((sum, l) => sum + ("reserved" in l ? l.reserved : 0), 0);
    };
    const reservedBefore = await reservedOf();
    await openFromMenu(page, "Office", "Orders");
    await page.getByRole("heading", { name: "Orders", level: 1 }).waitFor();
    await expectAccessible(page, "orders at 1366");
    await page.getByRole("button", { name: "New sales order" }).click();
    const create = page.getByRole("dialog", { name: "New sales order" });
    await create.getByLabel("Street", { exact: true }).fill("1 Main St");
    await create.getByLabel("City", { exact: true }).fill("Springfield");
    await create.getByLabel("Postal code", { exact: true }).fill("62701");
    await create.getByLabel("SKU or barcode").fill(spare.sku);
    await create.getByLabel("Quantity").fill("2");
    await expectAccessible(page, "new sales order at 1366");
    await create.getByRole("button", { name: "Create order" }).click();
    await page.getByRole("heading", { name: /^Order SO-/, level: 1 }).waitFor();
    await page.getByRole("button", { name: "Mark confirmed" }).click();
    await page.locator(".details .badge", { hasText: "confirmed" }).waitFor();
    await expectAccessible(page, "sales order at 1366");
    expect(await reservedOf()).toBe(reservedBefore + 2);

    // Stock and the ledger on screen and as CSV.
    await openFromMenu(page, "Office", "Stock");
    await page.getByRole("heading", { name: "Stock", level: 1 }).waitFor();
    // The demo's levels fill several pages: the product ordered is searched for by its SKU, as a person would.
    const filters = page.getByRole("form", { name: "Filter stock" });
    await filters.getByLabel("Search").fill(spare.sku);
    await filters.getByRole("button", { name: "Apply" }).click();
    // The Product cell reads "SKU name", the SKU a link to the product.
    await page.getByRole("link", { name: spare.sku, exact: true }).first().waitFor();
    await expectAccessible(page, "stock at 1366");
    await openFromMenu(page, "Office", "Movements");
    await page.getByRole("cell", { name: "received" }).first().waitFor();
    await expectAccessible(page, "movements at 1366");
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Download CSV" }).click(),
    ]);
    const csv = readFileSync((await download.path()) ?? "", "utf8");
    for (const product of products.values()) expect(csv).toContain(product.sku);
    expectSpotless(page);
  });

  it("at 390 px: finishes the count in progress one short, approves it, and sees the variance booked", {
    timeout: 300_000,
  }, async () => {
    const api = await demoApi();
    const [open] = (await ok(api.GET("/api/v1/inventory/counts", { params: { query: { status: "open" } } })))
      .items;
    if (!open) throw new Error("the demo tenant has no count in progress");
    const count = await ok(api.GET("/api/v1/inventory/counts/{id}", { params: { path: { id: open.id } } }));
    const short = count.lines.find((l) => !l.lotNumber && l.expected > 0);
    if (!short) throw new Error("no line to count short");

    const phone = await openPage("/app/", { phone: true });
    await signIn(phone, DEMO.email, DEMO.password);
    await phone.getByRole("heading", { name: "Dashboard", level: 1 }).waitFor();
    await phone.getByText("On hand", { exact: true }).waitFor();
    await expectAccessible(phone, "dashboard at 390");
    await expectFitsPhone(phone, "dashboard at 390");
    await openFromMenu(phone, "Office", "Counts");
    await phone.getByRole("heading", { name: "Cycle counts", level: 1 }).waitFor();
    await expectAccessible(phone, "counts at 390");
    await expectFitsPhone(phone, "counts at 390");
    await phone.goto(`/app/counts/${count.id}`);
    await phone.getByRole("heading", { name: /^Count /, level: 1 }).waitFor();
    // Inputs in the order of the count's lines (a product with two lots at one bin has two of one label).
    for (const [index, line] of count.lines.entries()) {
      const counted = line === short ? line.expected - 1 : line.expected;
      await phone.locator("input.count-input").nth(index).fill(String(counted));
    }
    await expectAccessible(phone, "count at 390");
    await expectFitsPhone(phone, "count at 390");
    await screenshot(phone, "demo-day-count-phone");
    await phone.getByRole("button", { name: "Submit for review" }).click();
    await phone.getByRole("button", { name: "Approve variances" }).click();
    const approve = phone.getByRole("dialog", { name: "Approve this count's variances?" });
    await approve.getByText("booked to stock").waitFor();
    await expectAccessible(phone, "approve dialog at 390");
    await approve.getByRole("button", { name: "Approve variances" }).click();
    await phone.locator(".details .badge", { hasText: "approved" }).waitFor();

    const ledger = await ok(
      api.GET("/api/v1/inventory/movements", {
        params: { query: { productId: short.productId, locationId: short.locationId, pageSize: 5 } },
      }),
    );
    expect(ledger.items[0]).toMatchObject({
      reason: "cycle_count",
      delta: -1,
      onHandAfter: short.expected - 1,
    });
    await openFromMenu(phone, "Office", "Movements");
    await phone.getByRole("cell", { name: "cycle count" }).first().waitFor();
    await expectAccessible(phone, "movements at 390");
    await expectFitsPhone(phone, "movements at 390");
    expectSpotless(phone);
  });
});

describe("the stock screen", () => {
  it("adjusts and transfers from the stock screen", async () => {
    const tenant = await createTenant();
    const { mug } = await warehouse(tenant);
    const page = await openPage("/app/stock");
    await signIn(page, tenant.email, tenant.password);
    await page.getByRole("button", { name: "Adjust MUG-1 at A1" }).click();
    const adjust = page.getByRole("dialog", { name: "Adjust MUG-1 at A1" });
    await adjust.getByLabel("Quantity").fill("-2");
    await adjust.getByLabel("Reason").selectOption("damaged");
    await adjust.getByRole("button", { name: "Adjust" }).click();
    await expect
      .poll(() => page.getByRole("row", { name: /MUG-1/ }).getByRole("cell").nth(5).textContent())
      .toBe("8");
    await page.getByRole("button", { name: "Transfer MUG-1 from A1" }).click();
    const transfer = page.getByRole("dialog", { name: "Transfer MUG-1 at A1" });
    await transfer.getByLabel("Quantity").fill("5");
    await transfer.getByLabel("To location").selectOption({ label: "MAIN · A2" });
    await transfer.getByRole("button", { name: "Transfer" }).click();
    await page.getByRole("row", { name: /MUG-1 Mug MAIN A2/ }).waitFor();
    const byLocation = Object.fromEntries(
      (await levels(tenant, mug.id)).map((l) => [l.locationCode, l.onHand]),
    );
    expect(byLocation).toEqual({ A1: 3, A2: 5 });
    expectSpotless(page);
  });
});
