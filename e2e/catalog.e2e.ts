import { describe, expect, it } from "vitest";
import { createTenant, ok } from "./support/api";
import { expectWellBehaved, openPage, screenshot, signIn } from "./support/browser";

describe("kits, packagings, product import jobs and merchants, through the screens", () => {
  it("makes a kit of two products and gives one a case packaging", { timeout: 120_000 }, async () => {
    const tenant = await createTenant();
    for (const [sku, name] of [
      ["CUP-1", "Cup"],
      ["SAUCER-1", "Saucer"],
    ] as const)
      await ok(tenant.api.POST("/api/v1/products", { body: { sku, name } }));
    const page = await openPage("/app/products");
    await signIn(page, tenant.email, tenant.password);

    await page.getByRole("button", { name: "New product" }).click();
    const create = page.getByRole("dialog", { name: "New product" });
    await create.getByLabel("SKU").fill("SET-1");
    await create.getByLabel("Name").fill("Cup and saucer");
    await create.getByLabel("Type").selectOption("kit");
    await create.getByRole("button", { name: "Add component" }).click();
    await create.getByLabel("Component 1 SKU or barcode").fill("CUP-1");
    await create.getByRole("button", { name: "Add component" }).click();
    await create.getByLabel("Component 2 SKU or barcode").fill("SAUCER-1");
    await create.getByLabel("Units of component 2").fill("2");
    await create.getByRole("button", { name: "Create product" }).click();
    await page.getByRole("heading", { name: "SET-1 Cup and saucer", level: 1 }).waitFor();
    await page.getByText("CUP-1 × 1, SAUCER-1 × 2").waitFor();

    await page.goto("/app/products?search=CUP-1");
    await page.getByRole("link", { name: "CUP-1" }).click();
    await page.getByRole("heading", { name: "CUP-1 Cup", level: 1 }).waitFor();
    await page.getByRole("button", { name: "Edit" }).click();
    const edit = page.getByRole("dialog", { name: "Edit CUP-1" });
    await edit.getByRole("button", { name: "Add packaging" }).click();
    await edit.getByLabel("Packaging 1 code").fill("case");
    await edit.getByLabel("Packaging 1 name").fill("Case of 12");
    await edit.getByLabel("Units in packaging 1").fill("12");
    await screenshot(page, "product-packaging-dialog");
    await edit.getByRole("button", { name: "Save" }).click();
    await page.getByText("Case of 12 (case, 12 units)").waitFor();

    const products = await ok(tenant.api.GET("/api/v1/products", { params: { query: { pageSize: 10 } } }));
    const bySku = new Map(products.items.map((p) => [p.sku, p]));
    expect(bySku.get("SET-1")).toMatchObject({
      type: "kit",
      components: [
        { productId: bySku.get("CUP-1")?.id, quantity: 1 },
        { productId: bySku.get("SAUCER-1")?.id, quantity: 2 },
      ],
    });
    expect(bySku.get("CUP-1")?.packagings).toEqual([
      { code: "case", name: "Case of 12", quantity: 12, barcode: null },
    ]);
    expectWellBehaved(page);
  });

  it("previews a CSV's errors, then imports it as a job and watches it succeed", {
    timeout: 180_000,
  }, async () => {
    const tenant = await createTenant();
    const page = await openPage("/app/products");
    await signIn(page, tenant.email, tenant.password);
    await page.getByRole("button", { name: "Import CSV" }).click();
    const dialog = page.getByRole("dialog", { name: "Import products (CSV)" });
    const paste = dialog.getByLabel("Or paste it");
    await paste.fill("sku,name,price\nTEA-1,Green tea,4.5\nTEA-2,,3\n");
    await dialog.getByRole("button", { name: "Preview" }).click();
    await dialog.getByRole("alert").getByText(/name/).first().waitFor();
    expect(await dialog.getByRole("button", { name: "Import as a job" }).isDisabled()).toBe(true);
    await paste.fill("sku,name,price\nTEA-1,Green tea,4.5\nTEA-2,Black tea,3\n");
    await dialog.getByRole("button", { name: "Preview" }).click();
    await dialog.getByText("Preview: 2 rows, 2 to create, 0 to update. Nothing was written yet.").waitFor();
    await dialog.getByRole("button", { name: "Import as a job" }).click();
    await page.getByRole("heading", { name: /^product import /, level: 1 }).waitFor();
    await page.locator(".details .badge", { hasText: "succeeded" }).waitFor({ timeout: 90_000 });
    await page.getByText("2 of 2").waitFor();
    await page.getByRole("link", { name: "← Jobs" }).click();
    await page.getByRole("region", { name: "Jobs" }).getByText("succeeded").waitFor();
    const tea = await ok(tenant.api.GET("/api/v1/products", { params: { query: { search: "TEA" } } }));
    expect(tea.items.map((p) => [p.sku, p.name]).sort()).toEqual([
      ["TEA-1", "Green tea"],
      ["TEA-2", "Black tea"],
    ]);
    expectWellBehaved(page);
  });

  it("creates a merchant and renames it", { timeout: 120_000 }, async () => {
    const tenant = await createTenant();
    const page = await openPage("/app/merchants");
    await signIn(page, tenant.email, tenant.password);
    await page.getByText("No merchants yet.").waitFor();
    await page.getByRole("button", { name: "New merchant" }).click();
    const create = page.getByRole("dialog", { name: "New merchant" });
    await create.getByLabel("Code").fill("ACME");
    await create.getByLabel("Name").fill("Acme Outdoor");
    await create.getByRole("button", { name: "Create merchant" }).click();
    await page.getByRole("cell", { name: "Acme Outdoor" }).waitFor();
    await page.getByRole("button", { name: "Edit ACME" }).click();
    const edit = page.getByRole("dialog", { name: "Edit ACME" });
    await edit.getByLabel("Name").fill("Acme Outdoor GmbH");
    await edit.getByRole("button", { name: "Save" }).click();
    await page.getByRole("cell", { name: "Acme Outdoor GmbH" }).waitFor();
    const merchants = await ok(tenant.api.GET("/api/v1/merchants"));
    expect(merchants.items.map((m) => [m.code, m.name])).toEqual([["ACME", "Acme Outdoor GmbH"]]);
    expectWellBehaved(page);
  });
});
