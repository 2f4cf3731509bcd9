import { describe, expect, it } from "vitest";
import { apiClient, createTenant, joinedBy } from "./support/api";
import { DEMO, expectWellBehaved, openFromMenu, openPage, screenshot, signIn } from "./support/browser";

describe("sign-in", () => {
  it("shows the API's own message for a wrong password, then signs in and out", async () => {
    const page = await openPage("/app/");
    await screenshot(page, "sign-in");
    await signIn(page, DEMO.email, "not-the-password");
    const refused = await apiClient().POST("/api/v1/auth/login", {
      body: { email: DEMO.email, password: "not-the-password" },
    });
    const message = (refused.error as { message: string }).message;
    await expect.poll(() => page.getByRole("alert").textContent()).toContain(message);

    await page.getByLabel("Password").fill(DEMO.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("heading", { name: "Dashboard", level: 1 }).waitFor();
    await page.getByText("Demo Warehouse").first().waitFor();
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByRole("heading", { name: "Sign in" }).waitFor();
    expectWellBehaved(page);
  });

  it("lets a member of several tenants choose one, and switch", async () => {
    const first = await createTenant({ name: "Alpha Depot" });
    const second = await createTenant({ name: "Beta Depot" });
    await joinedBy(second, first, "admin");
    const page = await openPage("/app/");
    await signIn(page, first.email, first.password);
    await page.getByRole("heading", { name: "Choose a tenant" }).waitFor();
    await screenshot(page, "tenant-picker");
    await page.getByRole("button", { name: /Beta Depot/ }).click();
    await page.getByRole("heading", { name: "Dashboard", level: 1 }).waitFor();
    const tenant = page.getByRole("combobox", { name: "Tenant" });
    expect(await tenant.inputValue()).toBe(second.id);
    await tenant.selectOption({ label: "Alpha Depot" });
    expect(await tenant.inputValue()).toBe(first.id);
    await page.getByRole("heading", { name: "Dashboard", level: 1 }).waitFor();
    expectWellBehaved(page);
  });

  it("never lets page scripts see the refresh token: it lives in an HttpOnly cookie, storage holds no other credential than the tab's access token", async () => {
    const page = await openPage("/app/");
    // Stands in for a script injected into the page: it sees every fetch and XHR the page makes, on every load
    // (the app may load the page again while signing in, as the floor's service worker takes control).
    await page.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { seen: string[] }).seen = seen;
      const original = window.fetch;
      window.fetch = async (...args) => {
        const response = await original(...args);
        seen.push(await response.clone().text());
        return response;
      };
    });
    await page.reload();
    await signIn(page, DEMO.email, DEMO.password);
    await page.getByRole("heading", { name: "Dashboard", level: 1 }).waitFor();
    await page.getByText("On hand", { exact: true }).waitFor();
    const exposed = await page.evaluate(() => ({
      seen: (window as unknown as { seen: string[] }).seen,
      local: Object.keys(localStorage),
      stored: Object.values(localStorage).join("\n"),
      session: Object.keys(sessionStorage),
      sessionValue: Object.values(sessionStorage).join("\n"),
      cookie: document.cookie,
    }));
    expect(exposed.seen.length).toBeGreaterThan(0); // the page's own API calls went through the wrapper
    expect(exposed.seen.join("\n")).not.toMatch(/wms_rt_/);
    // The tab keeps its access token (an hour at most) for its reloads; a script of the page could ask the
    // refresh endpoint for one anyway (docs/decisions/web-app.md). Never the refresh token.
    expect(exposed).toMatchObject({ session: ["wms.access"], cookie: "" });
    expect(exposed.sessionValue).toMatch(/"token":"eyJ/);
    expect(exposed.sessionValue).not.toMatch(/wms_rt_/);
    // Ids, a mark and who signed in (the floor names them with no network), never a credential.
    expect(exposed.local.sort()).toEqual(["wms.signedIn", "wms.tenant", "wms.user"]);
    expect(exposed.stored).not.toMatch(/wms_rt_|eyJ/);
    // The browser keeps the token where no script reaches: HttpOnly, Secure, SameSite=Strict, for /api/v1/auth only.
    const [cookie] = await page.context().cookies();
    expect(cookie).toMatchObject({
      name: "wms_refresh",
      path: "/api/v1/auth",
      httpOnly: true,
      secure: true,
      sameSite: "Strict",
    });
    expect(cookie?.value).toMatch(/^wms_rt_/);
    expectWellBehaved(page);
  });

  it("keeps the session across a reload and in a new tab, until signing out in either", async () => {
    const page = await openPage("/app/products");
    await signIn(page, DEMO.email, DEMO.password);
    await page.getByRole("heading", { name: "Products", level: 1 }).waitFor();
    await page.reload();
    await page.getByRole("heading", { name: "Products", level: 1 }).waitFor();
    // Two new tabs at once: each starts with a refresh (a new tab has no access token of its own), and refresh
    // tokens are single use, so the shared cookie must not be presented twice.
    const [tab, other] = await Promise.all([page.context().newPage(), page.context().newPage()]);
    await Promise.all([tab.goto("/app/configuration/users"), other.goto("/app/stock")]);
    await tab.getByRole("heading", { name: "Users", level: 1 }).waitFor();
    await other.getByRole("heading", { name: "Stock", level: 1 }).waitFor();
    await tab.getByRole("button", { name: "Sign out" }).click();
    await tab.getByRole("heading", { name: "Sign in" }).waitFor();
    await page.reload();
    await page.getByRole("heading", { name: "Sign in" }).waitFor();
    expectWellBehaved(page);
  });

  it("reloads without a refresh while the tab's access token is valid, and with one once it is due or refused", async () => {
    const page = await openPage("/app/products");
    const refreshes: number[] = [];
    page.on("response", (response) => {
      if (response.url().endsWith("/api/v1/auth/refresh")) refreshes.push(response.status());
    });
    const bearers: string[] = [];
    page.on("request", (request) => {
      const header = request.headers().authorization;
      if (header && new URL(request.url()).pathname === "/api/v1/products") bearers.push(header);
    });
    const products = () => page.getByRole("region", { name: "Products" }).getByRole("row").nth(1).waitFor();
    await signIn(page, DEMO.email, DEMO.password);
    await products();
    const kept = () => page.evaluate(() => JSON.parse(sessionStorage.getItem("wms.access") ?? "null"));
    const first = await kept();

    // A reload reads the page at once with the token the tab kept: no refresh, no spinner of signing in first.
    await page.reload();
    await products();
    await page.reload();
    await products();
    expect(refreshes).toEqual([]);
    expect(new Set(bearers)).toEqual(new Set([`Bearer ${first.token}`]));

    // Due for renewal (the token expires within the minute): the reload renews it first, once.
    await page.evaluate(() => {
      const access = JSON.parse(sessionStorage.getItem("wms.access") ?? "{}");
      sessionStorage.setItem("wms.access", JSON.stringify({ ...access, expiresAt: Date.now() + 30_000 }));
    });
    await page.reload();
    await products();
    expect(refreshes).toEqual([200]);
    const renewed = await kept();
    expect(renewed.token).not.toBe(first.token);
    expect(bearers.at(-1)).toBe(`Bearer ${renewed.token}`);

    // A token the server refuses (expired by its clock, or signed with another key): the page renews and reads.
    await page.evaluate(() => {
      const access = JSON.parse(sessionStorage.getItem("wms.access") ?? "{}");
      const [header, payload, signature] = access.token.split(".");
      const claims = JSON.parse(atob(payload.replaceAll("-", "+").replaceAll("_", "/")));
      const expired = btoa(JSON.stringify({ ...claims, exp: claims.iat + 1 }))
        .replaceAll("+", "-")
        .replaceAll("/", "_")
        .replace(/=+$/, "");
      sessionStorage.setItem(
        "wms.access",
        JSON.stringify({ ...access, token: `${header}.${expired}.${signature}` }),
      );
    });
    await page.reload();
    await products();
    await expect.poll(() => refreshes).toEqual([200, 200]);
    expect(bearers.at(-1)).toBe(`Bearer ${(await kept()).token}`);
    await page.getByRole("heading", { name: "Products", level: 1 }).waitFor();
    expectWellBehaved(page);
  });

  it("renews the access token a minute before it expires", async () => {
    const page = await openPage("/app/", { fakeClock: true });
    const refreshes: number[] = [];
    page.on("response", (response) => {
      if (response.url().endsWith("/api/v1/auth/refresh")) refreshes.push(response.status());
    });
    const bearers = new Set<string>();
    page.on("request", (request) => {
      const header = request.headers().authorization;
      if (header && request.url().includes("/api/v1/dashboard?")) bearers.add(header);
    });
    await signIn(page, DEMO.email, DEMO.password);
    await page.getByText("On hand", { exact: true }).waitFor();
    expect(refreshes).toEqual([]);

    await page.clock.fastForward("59:30"); // the token lives an hour; renewal is due 60 s before
    await expect.poll(() => refreshes).toEqual([200]);
    await openFromMenu(page, "Office", "Products");
    await page.getByRole("link", { name: "Dashboard" }).click();
    await page.getByText("On hand", { exact: true }).waitFor();
    await expect.poll(() => bearers.size).toBe(2); // the dashboard's calls before and after carry different tokens
    expectWellBehaved(page);
  });

  it("asks a deep link's visitor to sign in, then shows the page the link names; unknown pages say so", async () => {
    const page = await openPage("/app/configuration/api-keys");
    await signIn(page, DEMO.email, DEMO.password);
    await page.getByRole("heading", { name: "API Keys", level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/app/configuration/api-keys");
    await openFromMenu(page, "Office", "Products");
    await page.evaluate(() => {
      history.pushState(null, "", "/app/no-such-page");
      dispatchEvent(new PopStateEvent("popstate"));
    });
    await page.getByRole("heading", { name: "Page not found", level: 1 }).waitFor();
    await page.getByRole("link", { name: "Back to the dashboard" }).click();
    await page.getByRole("heading", { name: "Dashboard", level: 1 }).waitFor();
    expectWellBehaved(page);
  });
});
