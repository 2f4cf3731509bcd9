import { describe, it } from "vitest";
import { expectSpotless, openPage, screenshot } from "./support/browser";

describe("API reference page", () => {
  it("renders the operations with every other origin blocked", { timeout: 300_000 }, async () => {
    const page = await openPage("/api/v1/docs");
    await page
      .getByRole("heading", { name: "Warehouse Management API" })
      .first()
      .waitFor({ timeout: 180_000 });
    await page.getByText("GET/api/v1/health").or(page.getByText("/api/v1/health")).first().waitFor();
    await page.getByRole("button", { name: "API keys" }).first().click();
    await page.getByText("Create an API key with scopes").first().waitFor();
    await screenshot(page, "docs", { fullPage: false });
    // Not one console error: the page's /favicon.ico was a 404 on every visit (issue #45).
    expectSpotless(page);
  });
});
