import { describe, expect, it } from "vitest";
import { createTenant, mailedLink } from "./support/api";
import { expectWellBehaved, openPage, screenshot, signIn } from "./support/browser";

/** The path and query of a mailed link, opened against the server under test. */
const pathOf = (link: string) => {
  const url = new URL(link);
  return `${url.pathname}${url.search}`;
};

async function openUsers(email: string, password: string) {
  const page = await openPage("/app/configuration/users");
  await signIn(page, email, password);
  await page.getByRole("heading", { name: "Users", level: 1 }).waitFor();
  return page;
}

async function invite(page: Awaited<ReturnType<typeof openPage>>, email: string, role: string) {
  const form = page.getByRole("region", { name: "Invite a user" });
  await form.getByLabel("Email").fill(email);
  await form.getByLabel("Role").selectOption(role);
  await form.getByRole("button", { name: "Invite" }).click();
  await page.getByRole("status").getByText(`An invitation was mailed to ${email}`).waitFor();
}

describe("Configuration, Users: invitations", () => {
  it("invites an email; the person opens the mailed link, sets a name and password, and is signed in as a member", async () => {
    const tenant = await createTenant();
    const email = `grace-${tenant.id}@e2e.example`;
    const admin = await openUsers(tenant.email, tenant.password);
    await invite(admin, email, "operator");
    const pending = admin.getByRole("region", { name: "Pending invitations" });
    await pending.getByRole("cell", { name: email, exact: true }).waitFor();
    await screenshot(admin, "users-invitations");

    const invited = await openPage(pathOf(await mailedLink(email)));
    await invited.getByRole("heading", { name: "Accept invitation" }).waitFor();
    await invited.getByText(`is invited to join ${tenant.name} as operator`).waitFor();
    await screenshot(invited, "accept-invitation");
    await invited.getByLabel("Name").fill("Grace");
    await invited.getByLabel("Password").fill("grace-password-1");
    await invited.getByRole("button", { name: "Accept invitation" }).click();
    await invited.getByText("On hand", { exact: true }).waitFor(); // the dashboard: signed in as the new member
    await invited.getByRole("link", { name: "Grace (your account)" }).waitFor();
    // An operator: the Configuration menu offers warehouses only, no people, keys or webhooks.
    await invited
      .getByRole("navigation", { name: "Main" })
      .getByRole("button", { name: "Configuration" })
      .click();
    const configuration = invited.getByRole("list", { name: "Configuration" });
    expect(await configuration.getByRole("link").allTextContents()).toEqual(["Warehouses"]);
    await invited.keyboard.press("Escape");

    // A reload keeps the session (the refresh token is in the session cookie) and shows the new member.
    await admin.reload();
    await admin.getByRole("row", { name: new RegExp(`Grace ${email}`) }).waitFor();
    await pending.getByText("No pending invitations.").waitFor();
    expectWellBehaved(admin);
    expectWellBehaved(invited);
  });

  it("revokes a pending invitation with the confirmation dialog; its link then says why it no longer works", async () => {
    const tenant = await createTenant();
    const email = `revoked-${tenant.id}@e2e.example`;
    const admin = await openUsers(tenant.email, tenant.password);
    await invite(admin, email, "viewer");
    await admin.getByRole("button", { name: `Revoke the invitation of ${email}` }).click();
    const dialog = admin.getByRole("dialog", { name: `Revoke the invitation of ${email}?` });
    await dialog.getByRole("button", { name: "Revoke" }).click();
    await admin.getByText("No pending invitations.").waitFor();

    const visitor = await openPage(pathOf(await mailedLink(email)));
    await visitor
      .getByRole("alert")
      .getByText("This invitation is unknown, used, revoked or expired")
      .waitFor();
    expect(await visitor.getByLabel("Password").count()).toBe(0);
    expectWellBehaved(admin);
  });

  it("lets a person who already has an account sign in on the invitation page and join a second tenant", async () => {
    const first = await createTenant();
    const second = await createTenant();
    const admin = await openUsers(second.email, second.password);
    await invite(admin, first.email, "manager");

    const person = await openPage(pathOf(await mailedLink(first.email)));
    await person.getByText("This email already has an account. Sign in to accept.").waitFor();
    expect(await person.getByLabel("Email").inputValue()).toBe(first.email);
    await person.getByLabel("Password").fill(first.password);
    await person.getByRole("button", { name: "Sign in" }).click();
    await person.getByRole("button", { name: "Accept invitation" }).click();
    await person.getByText("On hand", { exact: true }).waitFor();
    const tenantSwitch = person.getByRole("combobox", { name: "Tenant" });
    expect(await tenantSwitch.locator("option").allTextContents()).toEqual(
      expect.arrayContaining([first.name, second.name]),
    );
    expect(await tenantSwitch.inputValue()).toBe(second.id);
    expectWellBehaved(person);
  });
});
