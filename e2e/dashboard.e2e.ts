import { beforeAll, describe, expect, it } from "vitest";
import { createTenant, type TestTenant } from "./support/api";
import { expectWellBehaved, openFromMenu, openPage, screenshot, signIn } from "./support/browser";
import { seedWarehouse } from "./support/seed";

let tenant: TestTenant;
let seeded: Awaited<ReturnType<typeof seedWarehouse>>;
const today = new Date().toISOString().slice(0, 10);

beforeAll(async () => {
  tenant = await createTenant();
  seeded = await seedWarehouse(tenant);
});

describe("dashboard", () => {
  it("shows the stock position, both charts and the low-stock list from the seeded data", async () => {
    const page = await openPage("/app/");
    await signIn(page, tenant.email, tenant.password);
    await page.getByRole("heading", { name: "Dashboard", level: 1 }).waitFor();
    const stat = (name: string) => page.locator(".stats div", { hasText: name }).locator("dd");
    await expect.poll(() => stat("On hand").textContent()).toBe("147 units");
    expect(await stat("Available").textContent()).toBe("122 units");
    expect(await stat("Reserved").textContent()).toBe("25 units");

    const movements = page.getByRole("img", { name: /Stock movements per day/ });
    await movements.waitFor();
    expect(await movements.locator("rect.bar-in").count()).toBe(30);
    await page.getByText("Show the numbers").click();
    const todayRow = page.getByRole("row", { name: new RegExp(`^${today}`) });
    // In: 50 + 100 + 2 received, 10 transferred in. Out: 10 transferred out, 2 damaged, 3 shipped.
    expect(await todayRow.locator("td").allTextContents()).toEqual([expect.any(String), "162", "15"]);

    const orders = page.getByRole("img", { name: /Orders by status/ });
    const described = await orders.getAttribute("aria-labelledby");
    const name = await page.locator(`[id="${described}"]`).textContent();
    for (const bar of ["Sales: pending 1", "Sales: confirmed 1", "Sales: shipped 1", "Purchase: draft 1"]) {
      expect(name).toContain(bar);
    }

    const low = page.getByRole("region", { name: "Low stock" });
    expect(await low.getByRole("row").count()).toBe(2); // the header and LAMP-1
    await low.getByText("LAMP-1").waitFor();
    await screenshot(page, "dashboard");
    expectWellBehaved(page);
  });

  it("shows a spinner while its one read loads, and the API's message when it fails", async () => {
    const page = await openPage("/app/");
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let reads = 0;
    await page.route("**/api/v1/dashboard?*", async (route) => {
      reads += 1;
      await held;
      await route.continue();
    });
    await signIn(page, tenant.email, tenant.password);
    const movements = page.getByRole("region", { name: "Stock movements per day" });
    await movements.getByRole("status").getByText("Loading…").waitFor();
    release();
    await movements.getByRole("img", { name: /Stock movements per day/ }).waitFor();
    expect(await movements.getByRole("status").count()).toBe(0);
    expect(reads).toBe(1); // every figure of the page from one request

    await page.unroute("**/api/v1/dashboard?*");
    await page.route("**/api/v1/dashboard?*", (route) =>
      route.fulfill({
        status: 503,
        contentType: "application/json",
        body: JSON.stringify({ success: false, data: null, message: "Reports are resting", errors: [] }),
      }),
    );
    await page.reload();
    await page
      .getByRole("region", { name: "Orders by status" })
      .getByRole("alert")
      .getByText("Reports are resting")
      .waitFor();
  });

  it("fits a phone: the menu opens from its button and the charts scale down", async () => {
    const page = await openPage("/app/", { phone: true });
    await signIn(page, tenant.email, tenant.password);
    await page.getByRole("img", { name: /Stock movements per day/ }).waitFor();
    const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(scrollWidth).toBeLessThanOrEqual(390);
    await screenshot(page, "dashboard-phone");
    const menu = page.getByRole("button", { name: "Menu" });
    expect(await page.getByRole("link", { name: "Products" }).isVisible()).toBe(false);
    await menu.click();
    expect(await menu.getAttribute("aria-expanded")).toBe("true");
    await screenshot(page, "menu-phone", { fullPage: false });
    await page.getByRole("link", { name: "Products" }).click();
    await page.getByRole("heading", { name: "Products", level: 1 }).waitFor();
    expect(await page.getByRole("link", { name: "Products" }).isVisible()).toBe(false); // the menu closed
    expectWellBehaved(page);
  });
});

describe("products", () => {
  it("searches and filters the list, then shows a product's stock per location and its movements", async () => {
    await tenant.api.PATCH("/api/v1/products/{id}", {
      params: { path: { id: seeded.pen.id } },
      body: { status: "Inactive" },
    });
    const page = await openPage("/app/");
    await signIn(page, tenant.email, tenant.password);
    await openFromMenu(page, "Office", "Products");
    const table = page.getByRole("region", { name: "Products" });
    await table.getByText("MUG-1").waitFor();
    const skus = async () => (await table.locator("tbody tr td:first-child").allTextContents()).sort();
    expect(await skus()).toEqual(["LAMP-1", "MUG-1", "PEN-1"]);

    await page.getByLabel("Search").fill("lam");
    await page.getByRole("button", { name: "Apply" }).click();
    await expect.poll(skus).toEqual(["LAMP-1"]);
    expect(page.url()).toContain("search=lam");

    await page.getByLabel("Search").fill("");
    await page.getByLabel("Status").selectOption("Inactive");
    await page.getByRole("button", { name: "Apply" }).click();
    await expect.poll(skus).toEqual(["PEN-1"]);
    await page.getByLabel("Status").selectOption("");
    await page.getByLabel("Category").fill("none-such");
    await page.getByRole("button", { name: "Apply" }).click();
    await page.getByText("No products match.").waitFor();
    await page.getByLabel("Category").fill("e2e");
    await page.getByRole("button", { name: "Apply" }).click();
    await expect.poll(skus).toEqual(["LAMP-1", "MUG-1", "PEN-1"]);
    await screenshot(page, "products");

    await table.getByRole("link", { name: "MUG-1" }).click();
    await page.getByRole("heading", { name: "MUG-1 Mug", level: 1 }).waitFor();
    const stock = page.getByRole("region", { name: "Stock per location" });
    await stock.getByText("A2", { exact: true }).waitFor();
    await stock.getByText("MAIN").first().waitFor(); // the warehouses' codes load alongside the levels
    const rows = await stock
      .locator("tbody tr")
      .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll("td")].map((td) => td.textContent)));
    const onHand = rows.reduce((sum, cells) => sum + Number(cells[2]), 0);
    expect(onHand).toBe(45);
    expect(rows.every((cells) => cells[0] === "MAIN")).toBe(true);
    const ledger = page.getByRole("region", { name: "Recent movements" });
    await ledger.getByText("damaged").waitFor();
    expect(await ledger.getByText("+50").count()).toBe(1);
    await screenshot(page, "product");
    expectWellBehaved(page);
  });
});
