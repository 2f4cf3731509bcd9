import { describe, expect, it } from "vitest";
import { createTenant, ok } from "./support/api";
import { expectSpotless, openFromMenu, openPage, signIn } from "./support/browser";
import { mainWithBins } from "./support/seed";

/** A loaded machine takes seconds to render a page: polls wait up to 15 s. */
const POLL = { timeout: 15_000 };

// Issue #45: no amount outside billing named a currency. An admin sets the tenant's under Configuration, and every
// amount shows it: product prices and costs, order lines and totals, stock value.

describe("the tenant currency", () => {
  it("is set under Configuration and then shown with the amounts of products and orders", {
    timeout: 180_000,
  }, async () => {
    const tenant = await createTenant();
    const { api } = tenant;
    const { a1 } = await mainWithBins(tenant);
    const mug = await ok(
      api.POST("/api/v1/products", { body: { sku: "MUG-1", name: "Mug", price: 8.5, cost: 3 } }),
    );
    await ok(
      api.POST("/api/v1/inventory/adjustments", {
        body: { productId: mug.id, locationId: a1.id, quantity: 10, reason: "received" },
      }),
    );
    const order = await ok(
      api.POST("/api/v1/orders/sales", {
        body: {
          customerId: crypto.randomUUID(),
          lines: [{ productId: mug.id, quantity: 2, price: 8.5 }],
          shippingAddress: { street: "1 Main St", city: "Springfield", zip: "12345" },
        },
      }),
    );

    const page = await openPage("/app/");
    await signIn(page, tenant.email, tenant.password);
    await page.getByRole("heading", { name: "Dashboard", level: 1 }).waitFor();
    await page.goto(`/app/products/${mug.id}`);
    await page.getByText("8.50", { exact: true }).waitFor(POLL); // no currency yet: a plain amount

    // The setting is under Configuration → Settings (the page was reachable by its URL only, issue #45).
    await openFromMenu(page, "Configuration", "Settings");
    await page.getByRole("heading", { name: "Settings", level: 1 }).waitFor(POLL);
    const section = page.getByRole("region", { name: "Currency" });
    await section.getByLabel("Currency").selectOption("EUR");
    await section.getByRole("button", { name: "Save currency" }).click();
    await section.getByRole("status").getByText("Saved: amounts are shown in EUR.").waitFor(POLL);
    expect((await ok(api.GET("/api/v1/settings"))).currency).toBe("EUR");

    await page.goto("/app/products");
    const products = page.getByRole("region", { name: "Products" });
    await products.getByRole("cell", { name: "€8.50" }).waitFor(POLL);
    await page.goto(`/app/orders/${order.id}`);
    await page.getByText("2 units, €17.00").waitFor(POLL);
    // The line's price and total (#, product, ordered, reserved, picked, shipped, backordered, open, price, total).
    const lineCells = () =>
      page
        .getByRole("region", { name: "Lines" })
        .first()
        .locator("tbody tr td")
        .evaluateAll((tds) => tds.map((td) => td.textContent?.trim()));
    await expect.poll(async () => (await lineCells()).slice(8, 10), POLL).toEqual(["€8.50", "€17.00"]);
    await page.goto("/app/");
    await page.getByText("€30.00").waitFor(POLL); // the dashboard's value at cost: 10 on hand x 3.00
    expectSpotless(page);
  });
});
