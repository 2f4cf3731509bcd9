import { beforeAll, describe, expect, it } from "vitest";
import { createTenant, ok, type TestTenant } from "./support/api";
import { expectAccessible, expectWellBehaved, openFromMenu, openPage, signIn } from "./support/browser";
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

describe("accessibility (axe-core, WCAG 2.1 AA)", () => {
  it("has no violations on the sign-in page", async () => {
    const page = await openPage("/app/");
    await page.getByLabel("Email").waitFor();
    await expectAccessible(page, "sign-in");
  });

  it("has no violations on any page of a signed-in administrator, dialogs included", {
    // Nine axe runs; on a loaded 2-core machine each takes up to half a minute.
    timeout: 420_000,
  }, async () => {
    const page = await openPage("/app/");
    await signIn(page, tenant.email, tenant.password);
    const visit = async (go: () => Promise<void>, heading: string, ready: string) => {
      await go();
      await page.getByRole("heading", { name: heading, level: 1 }).waitFor();
      await page.getByText(ready).first().waitFor();
      await expectAccessible(page, heading);
    };
    const menu = (group: string, link: string) => () => openFromMenu(page, group, link);
    await page.getByText("On hand", { exact: true }).waitFor();
    await page.getByText("LAMP-1").waitFor();
    await expectAccessible(page, "dashboard");
    // A menu group open, its links over the page.
    await page.getByRole("navigation", { name: "Main" }).getByRole("button", { name: "Office" }).click();
    await expectAccessible(page, "dashboard, Office menu open");
    await page.keyboard.press("Escape");
    await visit(menu("Office", "Products"), "Products", "MUG-1");
    await visit(
      () => page.getByRole("link", { name: "MUG-1", exact: true }).click(),
      "MUG-1 Mug",
      "received",
    );
    await visit(menu("Configuration", "API Keys"), "API Keys", "Initial admin key");
    await page.getByRole("button", { name: "Generate New Key" }).click();
    await page.getByRole("dialog").getByLabel("Name").waitFor();
    await expectAccessible(page, "generate key dialog");
    await page.keyboard.press("Escape");
    await visit(menu("Configuration", "Users"), "Users", "E2E Owner");
    await visit(menu("Configuration", "Webhooks"), "Webhooks", "erp.example.com");
    await page.goto(`/app/configuration/webhooks/${webhookId}`); // a full page load keeps the session
    await page.getByRole("heading", { name: "Webhook", level: 1 }).waitFor();
    await page.getByRole("heading", { name: "Deliveries" }).waitFor();
    await expectAccessible(page, "webhook");
    expect(mugId).toBeTruthy();
    expectWellBehaved(page);
  });

  it("can be used with the keyboard alone: sign in, open the Configuration menu, open and close a dialog", async () => {
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
    // The group opens below its button; Escape closes it and leaves the focus on the button.
    await page.keyboard.press("Enter");
    const links = page.getByRole("list", { name: "Configuration" });
    await links.getByRole("link", { name: "API Keys" }).waitFor();
    await page.keyboard.press("Escape");
    await links.waitFor({ state: "hidden" });
    expect(await focused()).toBe("Configuration");
    await page.keyboard.press("Enter");
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
