import { describe, expect, it } from "vitest";
import { apiClient, createTenant } from "./support/api";
import { expectWellBehaved, openFromMenu, openPage, screenshot, signIn } from "./support/browser";

describe("Configuration, API Keys", () => {
  it("generates a key shown once, which works until it is revoked through the confirmation dialog", async () => {
    const tenant = await createTenant();
    const page = await openPage("/app/");
    await signIn(page, tenant.email, tenant.password);
    await openFromMenu(page, "Configuration", "API Keys");
    await page.getByRole("heading", { name: "API Keys", level: 1 }).waitFor();

    await page.getByRole("button", { name: "Generate New Key" }).click();
    const form = page.getByRole("dialog", { name: "Generate New Key" });
    await form.getByLabel("Name").fill("E2E reader");
    await form.getByLabel("read:products").check();
    await form.getByLabel("read:inventory").check();
    await screenshot(page, "api-keys-generate");
    await form.getByRole("button", { name: "Generate key" }).click();

    const shown = page.getByRole("dialog", { name: "Your new API key" });
    await shown.getByText("it will not be shown again").waitFor();
    const key = await shown.getByLabel("API key").inputValue();
    expect(key).toMatch(/^wms_test_/);
    await shown.getByRole("button", { name: "Copy" }).click();
    await shown.getByText("Copied to the clipboard.").waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
    await screenshot(page, "api-keys-created");
    await shown.getByRole("button", { name: "Done" }).click();

    // Read once: the list shows the prefix, never the key.
    const row = page.getByRole("row", { name: /E2E reader/ });
    await row.waitFor();
    expect(await page.content()).not.toContain(key);
    expect(await row.textContent()).toContain("read:products, read:inventory");

    const withKey = apiClient({ "x-api-key": key });
    expect((await withKey.GET("/api/v1/products")).response.status).toBe(200);

    await row.getByRole("radio", { name: "Select E2E reader" }).check();
    await page.getByRole("button", { name: "Revoke" }).click();
    const confirm = page.getByRole("dialog");
    await confirm.getByText("This cannot be undone").waitFor();
    await screenshot(page, "api-keys-revoke");
    // Escape cancels: the key still works and focus is back on the Revoke button.
    await page.keyboard.press("Escape");
    await expect.poll(() => confirm.count()).toBe(0);
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Revoke");
    expect((await withKey.GET("/api/v1/products")).response.status).toBe(200);

    await page.getByRole("button", { name: "Revoke" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Revoke" }).click();
    await expect.poll(() => row.textContent()).toContain("Revoked");
    await screenshot(page, "api-keys");
    expect((await withKey.GET("/api/v1/products")).response.status).toBe(401);
    expectWellBehaved(page);
  });

  it("shows the API's validation messages in the form", async () => {
    const tenant = await createTenant();
    const page = await openPage("/app/");
    await signIn(page, tenant.email, tenant.password);
    await openFromMenu(page, "Configuration", "API Keys");
    await page.getByRole("button", { name: "Generate New Key" }).click();
    const form = page.getByRole("dialog", { name: "Generate New Key" });
    await form.getByLabel("Name").fill("No scopes");
    await form.getByLabel("Allowed IPs (optional)").fill("not-an-address");
    await form.getByRole("button", { name: "Generate key" }).click();
    const alert = form.getByRole("alert");
    await alert.waitFor();
    const refused = await tenant.api.POST("/api/v1/api-keys", {
      body: { name: "No scopes", scopes: [], allowedIps: ["not-an-address"] },
    });
    for (const line of (refused.error as { errors: string[] }).errors)
      expect(await alert.textContent()).toContain(line);
    expectWellBehaved(page);
  });
});
