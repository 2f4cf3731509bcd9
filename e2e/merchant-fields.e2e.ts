import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { createTenant, ok } from "./support/api";
import { expectAccessible, expectFitsPhone, expectWellBehaved, openPage, signIn } from "./support/browser";
import { mainWithBins } from "./support/seed";

// Merchant fields for 3PLs (issue #45): a 3PL could not put a product or an order under a merchant in the web app,
// nor list one merchant's. The product form and the new-order dialog have a Merchant select, the Products and
// Orders pages a Merchant filter; an edit of another field keeps the merchant (it sends only what changed).

/** A loaded machine takes seconds to render a page: polls wait up to 15 s. */
const POLL = { timeout: 15_000 };
const ACME = "ACME Acme Outdoor";
const BETA = "BETA Beta Brands";

/** Checks a page at the size it runs: fits a phone with 44 px targets at 390 px, axe finds nothing at either. */
async function expectFits(page: Page, phone: boolean, where: string) {
  if (phone) await expectFitsPhone(page, where);
  await expectAccessible(page, where);
}

describe.each([
  { size: "1366 px", phone: false },
  { size: "390 px", phone: true },
])("merchant fields at $size", ({ phone }) => {
  it("puts a product and an order under a merchant, keeps it through an edit and filters the lists by it", {
    timeout: 300_000,
  }, async () => {
    const tenant = await createTenant();
    const { api } = tenant;
    const { a1 } = await mainWithBins(tenant);
    const acme = await ok(api.POST("/api/v1/merchants", { body: { code: "ACME", name: "Acme Outdoor" } }));
    const beta = await ok(api.POST("/api/v1/merchants", { body: { code: "BETA", name: "Beta Brands" } }));
    await ok(api.POST("/api/v1/products", { body: { sku: "OWN-1", name: "Own goods" } }));
    await ok(api.POST("/api/v1/products", { body: { sku: "BAG-1", name: "Bag", merchantId: beta.id } }));

    const page = await openPage("/app/", { phone });
    await signIn(page, tenant.email, tenant.password);
    await page.getByRole("heading", { name: "Dashboard", level: 1 }).waitFor(POLL);

    // A new product under ACME.
    await page.goto("/app/products");
    await page.getByRole("button", { name: "New product" }).click();
    const create = page.getByRole("dialog", { name: "New product" });
    await create.getByLabel("SKU", { exact: true }).fill("TENT-1");
    await create.getByLabel("Name", { exact: true }).fill("Tent");
    await create.getByLabel("Merchant").selectOption({ label: ACME });
    await expectFits(page, phone, "the product form with its Merchant select");
    await create.getByRole("button", { name: "Create product" }).click();
    await page.getByRole("heading", { name: /^TENT-1/, level: 1 }).waitFor(POLL);
    const tentId = page.url().split("/").at(-1) ?? "";
    const tent = () => ok(api.GET("/api/v1/products/{id}", { params: { path: { id: tentId } } }));
    expect((await tent()).merchantId).toBe(acme.id);
    await page.getByText(ACME).waitFor(POLL);

    // The edit dialog shows the merchant; a change of another field PATCHes that field only and keeps it.
    await page.getByRole("button", { name: "Edit", exact: true }).click();
    let edit = page.getByRole("dialog", { name: "Edit TENT-1" });
    await expect.poll(() => edit.getByLabel("Merchant").inputValue(), POLL).toBe(acme.id);
    await edit.getByLabel("Name", { exact: true }).fill("Tent for two");
    await edit.getByRole("button", { name: "Save" }).click();
    await edit.waitFor({ state: "detached", ...POLL });
    expect(await tent()).toMatchObject({ name: "Tent for two", merchantId: acme.id });
    // The merchant itself is changed in the same dialog (the product has no stock yet), and back.
    for (const [label, id] of [
      [BETA, beta.id],
      [ACME, acme.id],
    ] as const) {
      await page.getByRole("button", { name: "Edit", exact: true }).click();
      edit = page.getByRole("dialog", { name: "Edit TENT-1" });
      await edit.getByLabel("Merchant").selectOption({ label });
      await edit.getByRole("button", { name: "Save" }).click();
      await edit.waitFor({ state: "detached", ...POLL });
      expect((await tent()).merchantId).toBe(id);
    }

    // The products list filtered by ACME shows its product only, with its Merchant column.
    await page.goto("/app/products");
    const filters = page.getByRole("form", { name: "Filter products" });
    await filters.getByLabel("Merchant").selectOption({ label: ACME });
    await filters.getByRole("button", { name: "Apply" }).click();
    const products = page.getByRole("region", { name: "Products" });
    const skus = () => products.locator("tbody tr td:first-child").allTextContents();
    await expect.poll(skus, POLL).toEqual(["TENT-1"]);
    expect(page.url()).toContain(`merchant=${acme.id}`);
    await expect.poll(() => products.locator("tbody tr td").nth(4).textContent(), POLL).toBe("ACME");
    await expectFits(page, phone, "the products filtered by merchant");

    // An order's codes are the chosen owner's products: BETA has no TENT-1 (nothing is sent); ACME's order is made.
    // Add stock looks the code up among the chosen owner's products too: not BETA's, then ACME's 5 into A1.
    await page.goto("/app/stock");
    await page.getByRole("button", { name: "Add stock" }).click();
    const add = page.getByRole("dialog", { name: "Add stock" });
    await add.getByLabel("SKU or barcode").fill("TENT-1");
    await add.getByLabel("Merchant").selectOption({ label: BETA });
    await add.getByLabel("Location").selectOption({ label: "MAIN · A1" });
    await add.getByLabel("Quantity").fill("5");
    await add.getByRole("button", { name: "Add stock" }).click();
    await add.getByText("No product has the SKU or barcode TENT-1 among BETA's products").waitFor(POLL);
    await add.getByLabel("Merchant").selectOption({ label: ACME });
    await add.getByRole("button", { name: "Add stock" }).click();
    await add.waitFor({ state: "detached", ...POLL });
    const levels = await ok(api.GET("/api/v1/inventory/stock", { params: { query: { productId: tentId } } }));
    expect(levels.items.map((l) => ("onHand" in l ? [l.locationId, l.onHand] : []))).toEqual([[a1.id, 5]]);
    await page.goto("/app/orders");
    await page.getByRole("button", { name: "New sales order" }).click();
    const dialog = page.getByRole("dialog", { name: "New sales order" });
    await dialog.getByLabel("Street", { exact: true }).fill("1 Main St");
    await dialog.getByLabel("Postal code", { exact: true }).fill("12345");
    await dialog.getByLabel("City", { exact: true }).fill("Springfield");
    await dialog.getByLabel("SKU or barcode").fill("TENT-1");
    // Any owner's products by default (the order is then its products' owner's); a chosen owner narrows the codes.
    await expect.poll(() => dialog.getByLabel("Merchant").inputValue(), POLL).toBe("");
    await dialog.getByLabel("Merchant").selectOption({ label: BETA });
    await expectFits(page, phone, "the new-order dialog with its Merchant select");
    await dialog.getByRole("button", { name: "Create order" }).click();
    await dialog.getByText("No product has the SKU or barcode TENT-1 among BETA's products").waitFor(POLL);
    await dialog.getByLabel("Merchant").selectOption({ label: ACME });
    await dialog.getByRole("button", { name: "Create order" }).click();
    await page.getByRole("heading", { name: /^Order SO-/, level: 1 }).waitFor(POLL);
    const orderId = page.url().split("/").at(-1) ?? "";
    const order = await ok(api.GET("/api/v1/orders/{id}", { params: { path: { id: orderId } } }));
    expect(order.merchantId).toBe(acme.id);
    const placed = await ok(api.GET("/api/v1/orders", { params: { query: { pageSize: 100 } } }));
    expect(placed.items.map((o) => o.id)).toEqual([orderId]);

    // The orders list filtered by merchant: BETA has none, ACME the one, with its Merchant column.
    await page.goto("/app/orders");
    const orderFilters = page.getByRole("form", { name: "Filter orders" });
    await orderFilters.getByLabel("Merchant").selectOption({ label: BETA });
    await orderFilters.getByRole("button", { name: "Apply" }).click();
    await page.getByText("No orders match.").waitFor(POLL);
    await orderFilters.getByLabel("Merchant").selectOption({ label: ACME });
    await orderFilters.getByRole("button", { name: "Apply" }).click();
    const orders = page.getByRole("region", { name: "Orders" });
    await expect.poll(() => orders.locator("tbody tr").count(), POLL).toBe(1);
    await expect.poll(() => orders.locator("tbody tr td").nth(5).textContent(), POLL).toBe("ACME");
    await expectFits(page, phone, "the orders filtered by merchant");
    // A refused lookup is the app's own message, not a 4xx: nothing but the lossy network's cut answers is logged.
    expectWellBehaved(page);
  });
});
