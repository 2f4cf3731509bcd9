import { describe, expect, it } from "vitest";
import { apiClient, createTenant, mailedLink, ok } from "./support/api";
import { expectWellBehaved, openFromMenu, openPage, screenshot, signIn } from "./support/browser";

describe("passwords", () => {
  it("resets a forgotten password through the mailed link; the old password stops working", async () => {
    const tenant = await createTenant();
    const page = await openPage("/app/");
    await page.getByRole("link", { name: "Forgot your password?" }).click();
    await page.getByLabel("Email").fill(tenant.email);
    await page.getByRole("button", { name: "Send reset link" }).click();
    await page.getByRole("status").getByText(`If ${tenant.email} has an account`).waitFor();

    const link = new URL(await mailedLink(tenant.email));
    await page.goto(`${link.pathname}${link.search}`);
    await page.getByRole("heading", { name: "Choose a new password" }).waitFor();
    await screenshot(page, "reset-password");
    await page.getByLabel("New password").fill("a-brand-new-password-2");
    await page.getByRole("button", { name: "Set password" }).click();
    await page.getByRole("status").getByText(`The password of ${tenant.email} is set`).waitFor();

    await page.getByRole("link", { name: "Sign in" }).click();
    await signIn(page, tenant.email, tenant.password);
    await page.getByRole("alert").waitFor(); // the old password is refused with the API's message
    await page.getByLabel("Password").fill("a-brand-new-password-2");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByText("On hand", { exact: true }).waitFor();
    expectWellBehaved(page);
  });

  it("changes the password on the account page and signs out the person's other sessions", async () => {
    const tenant = await createTenant();
    const elsewhere = await ok(
      apiClient().POST("/api/v1/auth/login", { body: { email: tenant.email, password: tenant.password } }),
    );
    const page = await openPage("/app/");
    await signIn(page, tenant.email, tenant.password);
    await page.getByRole("link", { name: /your account/ }).click();
    await page.getByRole("heading", { name: "Your account", level: 1 }).waitFor();
    await page.getByLabel("Current password").fill("not-the-password");
    await page.getByLabel("New password").fill("another-new-password-3");
    await page.getByRole("button", { name: "Change password" }).click();
    await page.getByRole("alert").waitFor();

    await page.getByLabel("Current password").fill(tenant.password);
    await page.getByLabel("New password").fill("another-new-password-3");
    await page.getByRole("button", { name: "Change password" }).click();
    await page.getByRole("status").getByText("1 other session was signed out").waitFor();
    await screenshot(page, "account");

    const refused = await apiClient().POST("/api/v1/auth/refresh", {
      body: { refreshToken: elsewhere.refreshToken },
    });
    expect(refused.response.status).toBe(401);
    await openFromMenu(page, "Office", "Products"); // this session still works
    await page.getByRole("heading", { name: "Products", level: 1 }).waitFor();
    expectWellBehaved(page);
  });
});
