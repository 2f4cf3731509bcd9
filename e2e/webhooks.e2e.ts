import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { createTenant } from "./support/api";
import { expectWellBehaved, openFromMenu, openPage, screenshot, signIn } from "./support/browser";
import { startReceiver } from "./support/receiver";

describe("Configuration, Webhooks", () => {
  it("creates a subscription (secret once), edits its events, tests, retries, rotates and deletes it", async () => {
    const receiver = await startReceiver();
    const tenant = await createTenant();
    const page = await openPage("/app/");
    await signIn(page, tenant.email, tenant.password);
    await openFromMenu(page, "Configuration", "Webhooks");
    await page.getByRole("heading", { name: "Webhooks", level: 1 }).waitFor();

    await page.getByRole("button", { name: "Add webhook" }).click();
    const form = page.getByRole("dialog", { name: "Add webhook" });
    await form.getByLabel("URL").fill(receiver.url);
    await form.getByLabel("Description (optional)").fill("ERP sync");
    await form.getByLabel("product.created").check();
    await form.getByRole("button", { name: "Create webhook" }).click();
    const created = page.getByRole("dialog", { name: "Webhook created" });
    await created.getByText("it will not be shown again").waitFor();
    const secret = await created.getByLabel("Signing secret").inputValue();
    expect(secret).toMatch(/^whsec_/);
    await screenshot(page, "webhooks-created");
    await created.getByRole("button", { name: "Done" }).click();
    await screenshot(page, "webhooks");

    await page.getByRole("link", { name: receiver.url }).click();
    await page.getByRole("heading", { name: "Webhook", level: 1 }).waitFor();
    expect(await page.content()).not.toContain(secret);
    await page.getByLabel("inventory.adjusted").check();
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByText("Saved.").waitFor();
    const stored = await tenant.api.GET("/api/v1/webhooks");
    expect(stored.data?.data.items[0]?.events.sort()).toEqual(["inventory.adjusted", "product.created"]);

    // The receiver fails the first test delivery: the log shows the attempt's status.
    receiver.state.status = 500;
    await page.getByRole("button", { name: "Send test" }).click();
    const delivery = page.locator(".delivery", { hasText: "webhook.test" });
    await delivery.getByText("last answered 500").waitFor({ timeout: 20_000 });
    await delivery.getByText("Attempts").click();
    await delivery.getByRole("cell", { name: "500" }).first().waitFor();

    // Fixed receiver, Retry: delivered, and signed with the secret the app showed once.
    receiver.state.status = 200;
    const before = receiver.received.length;
    await delivery.getByRole("button", { name: "Retry" }).click();
    await delivery.getByText("succeeded").waitFor({ timeout: 20_000 });
    expect(receiver.received.length).toBeGreaterThan(before);
    const last = receiver.received.at(-1)!;
    const event = new Webhook(secret).verify(last.body, last.headers as Record<string, string>) as {
      type: string;
    };
    expect(event.type).toBe("webhook.test");
    await screenshot(page, "webhook");

    await page.getByRole("button", { name: "Rotate secret" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Rotate secret" }).click();
    const rotated = page.getByRole("dialog", { name: "New signing secret" });
    const newSecret = await rotated.getByLabel("Signing secret").inputValue();
    expect(newSecret).toMatch(/^whsec_/);
    expect(newSecret).not.toBe(secret);
    await rotated.getByRole("button", { name: "Done" }).click();

    await page.getByRole("button", { name: "Delete" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Delete" }).click();
    await page.getByRole("heading", { name: "Webhooks", level: 1 }).waitFor();
    await page.getByText("No webhooks yet.").waitFor();
    expectWellBehaved(page);
  });

  it("shows the API's message when a URL is refused", async () => {
    const tenant = await createTenant();
    const page = await openPage("/app/");
    await signIn(page, tenant.email, tenant.password);
    await openFromMenu(page, "Configuration", "Webhooks");
    await page.getByRole("button", { name: "Add webhook" }).click();
    const form = page.getByRole("dialog", { name: "Add webhook" });
    await form.getByLabel("URL").fill("https://10.0.0.1/hook");
    await form.getByLabel("order.created").check();
    await form.getByRole("button", { name: "Create webhook" }).click();
    const refused = await tenant.api.POST("/api/v1/webhooks", {
      body: { url: "https://10.0.0.1/hook", events: ["order.created"] },
    });
    expect(refused.response.status).toBe(400);
    const message = (refused.error as { message: string }).message;
    await expect.poll(() => form.getByRole("alert").textContent()).toContain(message);
    expectWellBehaved(page);
  });
});
