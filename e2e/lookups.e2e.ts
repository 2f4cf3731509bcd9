import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { createTenant, ok } from "./support/api";
import { expectWellBehaved, openFromMenu, openPage, signIn } from "./support/browser";

/** The choices of the Stock page's filter `name` (warehouseId, locationId), as the person reads them. */
const choices = (page: Page, name: string) =>
  page.getByRole("form", { name: "Filter stock" }).locator(`select[name=${name}] option`).allTextContents();

describe("warehouses, locations and merchants are read once per page load, and again after a write", () => {
  it("pages share one read of the warehouses; a new warehouse or location, made in this tab or another, shows at once", {
    timeout: 180_000,
  }, async () => {
    const tenant = await createTenant();
    const main = await ok(tenant.api.POST("/api/v1/warehouses", { body: { code: "MAIN", name: "Main" } }));
    await ok(
      tenant.api.POST("/api/v1/locations", {
        body: { warehouseId: main.id, code: "A-1", name: "A-1", type: "bin" },
      }),
    );
    const page = await openPage("/app/stock");
    const reads: string[] = [];
    page.on("request", (request) => {
      const { pathname } = new URL(request.url());
      if (request.method() === "GET" && /^\/api\/v1\/(warehouses|locations)$/.test(pathname))
        reads.push(pathname);
    });
    await signIn(page, tenant.email, tenant.password);
    await page.getByRole("heading", { name: "Stock", level: 1 }).waitFor();
    await expect.poll(() => choices(page, "warehouseId")).toEqual(["All", "MAIN Main"]);
    await expect.poll(() => choices(page, "locationId")).toEqual(["All", "MAIN · A-1"]);

    // Other pages that offer them take them from the same read.
    await openFromMenu(page, "Office", "Orders");
    await page.getByRole("heading", { name: "Orders", level: 1 }).waitFor();
    await openFromMenu(page, "Office", "Stock");
    await expect.poll(() => choices(page, "locationId")).toEqual(["All", "MAIN · A-1"]);
    expect(reads.sort()).toEqual(["/api/v1/locations", "/api/v1/warehouses"]);

    // A warehouse made on the Warehouses page: every page offers it from then on.
    await openFromMenu(page, "Configuration", "Warehouses");
    await page.getByRole("button", { name: "New warehouse" }).click();
    const create = page.getByRole("dialog", { name: "New warehouse" });
    await create.getByLabel("Code").fill("WEST");
    await create.getByLabel("Name").fill("West");
    await create.getByRole("button", { name: "Create warehouse" }).click();
    await create.waitFor({ state: "detached" });
    await page.getByRole("cell", { name: "WEST", exact: true }).waitFor();
    await openFromMenu(page, "Office", "Stock");
    await expect.poll(() => choices(page, "warehouseId")).toEqual(["All", "WEST West", "MAIN Main"]);

    // A location made in another tab of the app: this tab's next page offers it too.
    const other = await page.context().newPage();
    await other.goto("/app/warehouses");
    await other.getByRole("button", { name: "Locations of MAIN" }).click();
    await other.getByRole("heading", { name: "Locations of MAIN" }).waitFor();
    await other.getByRole("button", { name: "New location" }).click();
    const location = other.getByRole("dialog", { name: "New location in MAIN" });
    await location.getByLabel("Code").fill("B-2");
    await location.getByLabel("Name").fill("B-2");
    await location.getByRole("button", { name: "Create location" }).click();
    await location.waitFor({ state: "detached" });
    await other.getByRole("cell", { name: "B-2", exact: true }).first().waitFor();
    await openFromMenu(page, "Office", "Orders");
    await page.getByRole("heading", { name: "Orders", level: 1 }).waitFor();
    await openFromMenu(page, "Office", "Stock");
    await expect.poll(() => choices(page, "locationId")).toEqual(["All", "MAIN · A-1", "MAIN · B-2"]);
    expectWellBehaved(page);
  });
});
