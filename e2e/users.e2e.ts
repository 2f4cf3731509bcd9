import { describe, expect, it } from "vitest";
import { createTenant, invitedMember, ok } from "./support/api";
import {
  expectFitsPhone,
  expectWellBehaved,
  openFromMenu,
  openPage,
  screenshot,
  signIn,
} from "./support/browser";

describe("Configuration, Users", () => {
  it("changes a member's role, refuses to demote the last owner with the API's message, and removes a member", async () => {
    const tenant = await createTenant();
    const member = await invitedMember(tenant, {
      email: `ada-${tenant.id}@e2e.example`,
      name: "Ada",
      password: "ada-password-1",
      role: "viewer",
    });
    const page = await openPage("/app/");
    await signIn(page, tenant.email, tenant.password);
    await openFromMenu(page, "Configuration", "Users");
    await page.getByRole("heading", { name: "Users", level: 1 }).waitFor();

    await page.getByLabel("Role of Ada", { exact: true }).selectOption("operator");
    await page.getByRole("button", { name: "Change role of Ada" }).click();
    await expect
      .poll(
        async () =>
          (await ok(tenant.api.GET("/api/v1/users/{id}", { params: { path: { id: member.id } } }))).role,
      )
      .toBe("operator");

    await page.getByLabel("Role of E2E Owner", { exact: true }).selectOption("viewer");
    await page.getByRole("button", { name: "Change role of E2E Owner" }).click();
    const row = page.getByRole("row", { name: /E2E Owner/ });
    await row.getByRole("alert").getByText("The tenant's last owner cannot be removed or demoted").waitFor();
    await screenshot(page, "users");

    await page.getByRole("button", { name: "Remove Ada" }).click();
    const confirm = page.getByRole("dialog", { name: "Remove Ada from this tenant?" });
    await confirm.getByRole("button", { name: "Remove" }).click();
    await expect.poll(() => page.getByRole("row", { name: /Ada/ }).count()).toBe(0);
    const gone = await tenant.api.GET("/api/v1/users/{id}", { params: { path: { id: member.id } } });
    expect(gone.response.status).toBe(404);
    expectWellBehaved(page);
  });

  it("invites two people in a row: the form starts on viewer again, so the second never goes out as owner", async () => {
    const tenant = await createTenant();
    const page = await openPage("/app/configuration/users");
    await signIn(page, tenant.email, tenant.password);
    const invite = page.getByRole("region", { name: "Invite a user" });
    const role = invite.locator("select[name=role]");
    expect(await role.inputValue()).toBe("viewer");
    await invite.getByLabel("Email").fill(`first-${tenant.id}@e2e.example`);
    await role.selectOption("operator");
    await invite.getByRole("button", { name: "Invite" }).click();
    await invite.getByRole("status").getByText(`mailed to first-${tenant.id}@e2e.example`).waitFor();
    expect(await role.inputValue()).toBe("viewer");
    await invite.getByLabel("Email").fill(`second-${tenant.id}@e2e.example`);
    await invite.getByRole("button", { name: "Invite" }).click();
    await invite.getByRole("status").getByText(`mailed to second-${tenant.id}@e2e.example`).waitFor();
    const pending = await ok(
      tenant.api.GET("/api/v1/users/invitations", { params: { query: { status: "pending" } } }),
    );
    expect(Object.fromEntries(pending.items.map((i) => [i.email.split("-")[0], i.role]))).toEqual({
      first: "operator",
      second: "viewer",
    });
    expectWellBehaved(page);
  });

  it("fits a 390 px phone: the invite form starts on viewer, members stack, nothing scrolls sideways", async () => {
    const tenant = await createTenant();
    await invitedMember(tenant, {
      email: `lin-${tenant.id}@e2e.example`,
      name: "Lin",
      password: "lin-password-1",
      role: "operator",
    });
    const page = await openPage("/app/configuration/users", { phone: true });
    await signIn(page, tenant.email, tenant.password);
    await page.getByRole("heading", { name: "Users", level: 1 }).waitFor();
    await page.getByRole("row", { name: /Lin/ }).waitFor();
    expect(await page.locator("select[name=role]").inputValue()).toBe("viewer");
    await page.getByRole("button", { name: "Invite" }).isVisible();
    // A stacked row still names every column: Lin's email is on screen under "Email".
    const email = page.getByRole("cell", { name: `lin-${tenant.id}@e2e.example` });
    expect(await email.getAttribute("data-label")).toBe("Email");
    expect(await email.isVisible()).toBe(true);
    await expectFitsPhone(page, "users at 390 px");
    await screenshot(page, "users-phone");
    expectWellBehaved(page);
  });
});
