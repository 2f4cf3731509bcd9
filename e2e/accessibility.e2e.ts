import AxeBuilder from "@axe-core/playwright";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { createTenant, ok, type TestTenant } from "./support/api";
import { expectWellBehaved, openPage, signIn } from "./support/browser";
import { seedWarehouse } from "./support/seed";

let tenant: TestTenant;
let mugId: string;
let webhookId: string;

beforeAll(async () => {
  tenant = await createTenant();
  mugId = (await seedWarehouse(tenant)).mug.id;
  const webhook = await ok(
    tenant.api.POST("/api/v1/webhooks", { body: { url: "https://erp.example.com/hooks", events: ["*"] } }),
  );
  webhookId = webhook.id;
});

/** axe-core's WCAG 2.1 A and AA rules on the page as it is now; every violation is listed in the failure. */
async function expectAccessible(page: Page, where: string) {
  const { violations } = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"])
    .analyze();
  const found = violations.map(
    (v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join("; ")})`,
  );
  expect(found, where).toEqual([]);
}

describe("accessibility (axe-core, WCAG 2.1 AA)", () => {
  it("has no violations on the sign-in page", async () => {
    const page = await openPage("/app/");
    await page.getByLabel("Email").waitFor();
    await expectAccessible(page, "sign-in");
  });

  it("has no violations on any page of a signed-in administrator, dialogs included", async () => {
    const page = await openPage("/app/");
    await signIn(page, tenant.email, tenant.password);
    const visit = async (link: string, heading: string, ready: string) => {
      await page.getByRole("link", { name: link, exact: true }).first().click();
      await page.getByRole("heading", { name: heading, level: 1 }).waitFor();
      await page.getByText(ready).first().waitFor();
      await expectAccessible(page, heading);
    };
    await page.getByText("On hand").waitFor();
    await page.getByText("LAMP-1").waitFor();
    await expectAccessible(page, "dashboard");
    await visit("Products", "Products", "MUG-1");
    await visit("MUG-1", "MUG-1 Mug", "received");
    await visit("Configuration", "Configuration", "API Keys");
    await visit("API Keys", "API Keys", "Initial admin key");
    await page.getByRole("button", { name: "Generate New Key" }).click();
    await page.getByRole("dialog").getByLabel("Name").waitFor();
    await expectAccessible(page, "generate key dialog");
    await page.keyboard.press("Escape");
    await visit("Users", "Users", "E2E Owner");
    await visit("Webhooks", "Webhooks", "erp.example.com");
    await page.goto(`/app/configuration/webhooks/${webhookId}`); // a full page load keeps the session
    await page.getByRole("heading", { name: "Webhook", level: 1 }).waitFor();
    await page.getByRole("heading", { name: "Deliveries" }).waitFor();
    await expectAccessible(page, "webhook");
    expect(mugId).toBeTruthy();
    expectWellBehaved(page);
  });

  it("can be used with the keyboard alone: sign in, reach Configuration, open and close a dialog", async () => {
    const page = await openPage("/app/");
    await page.getByLabel("Email").waitFor();
    expect(await page.evaluate(() => document.activeElement?.getAttribute("name"))).toBe("email");
    await page.keyboard.type(tenant.email);
    await page.keyboard.press("Tab");
    await page.keyboard.type(tenant.password);
    await page.keyboard.press("Enter");
    await page.getByRole("heading", { name: "Dashboard", level: 1 }).waitFor();
    const focused = () => page.evaluate(() => document.activeElement?.textContent?.trim());
    // A new page puts focus on its heading; the navigation is above it.
    expect(await focused()).toBe("Dashboard");
    for (let i = 0; i < 15 && (await focused()) !== "Configuration"; i++)
      await page.keyboard.press("Shift+Tab");
    expect(await focused()).toBe("Configuration");
    await page.keyboard.press("Enter");
    await page.getByRole("heading", { name: "Configuration", level: 1 }).waitFor();
    for (let i = 0; i < 20 && (await focused()) !== "API Keys"; i++) await page.keyboard.press("Tab");
    await page.keyboard.press("Enter");
    await page.getByRole("heading", { name: "API Keys", level: 1 }).waitFor();
    for (let i = 0; i < 20 && (await focused()) !== "Generate New Key"; i++) await page.keyboard.press("Tab");
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("dialog", { name: "Generate New Key" });
    await dialog.waitFor();
    // Focus stays inside the dialog however far one tabs.
    for (let i = 0; i < 15; i++) {
      await page.keyboard.press("Tab");
      expect(await page.evaluate(() => Boolean(document.activeElement?.closest("dialog")))).toBe(true);
    }
    await page.keyboard.press("Escape");
    await expect.poll(() => dialog.count()).toBe(0);
    expect(await focused()).toBe("Generate New Key");
    expectWellBehaved(page);
  });
});
