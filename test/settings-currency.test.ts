import { beforeAll, describe, expect, it } from "vitest";
import { createTenant, type TestTenant, userWithRole } from "./support/builders";
import { call } from "./support/http";

// The tenant's currency (issue #45): a setting owners and admins change (PATCH /settings), every member reads
// (GET /settings), and the web app shows with every amount outside billing.

let tenant: TestTenant;
let other: TestTenant;
beforeAll(async () => {
  [tenant, other] = await Promise.all([createTenant(), createTenant()]);
});

const settingsOf = async (headers: Record<string, string>) =>
  (await call("GET", "/settings", { headers })).body.data;

describe("the tenant currency", () => {
  it("is null until an owner or admin sets it; then every member reads it, and null removes it", async () => {
    expect((await settingsOf(tenant.admin)).currency).toBeNull();
    const set = await call("PATCH", "/settings", { headers: tenant.admin, body: { currency: "EUR" } });
    expect(set.status).toBe(200);
    expect(set.body.data).toMatchObject({ currency: "EUR", gs1CompanyPrefix: null });
    const admin = await userWithRole(tenant, "admin");
    const changed = await call("PATCH", "/settings", { headers: admin, body: { currency: "CHF" } });
    expect(changed.status).toBe(200);
    expect((await settingsOf(await userWithRole(tenant, "viewer"))).currency).toBe("CHF");
    // Changing one setting keeps the others.
    await call("PATCH", "/settings", { headers: tenant.admin, body: { gs1CompanyPrefix: "4006381" } });
    expect(await settingsOf(tenant.admin)).toMatchObject({ currency: "CHF", gs1CompanyPrefix: "4006381" });
    const cleared = await call("PATCH", "/settings", { headers: tenant.admin, body: { currency: null } });
    expect(cleared.body.data).toMatchObject({ currency: null, gs1CompanyPrefix: "4006381" });
  });

  it("is refused (400) unless three capital letters (ISO 4217, as a rate card's), changing nothing", async () => {
    await call("PATCH", "/settings", { headers: tenant.admin, body: { currency: "USD" } });
    for (const currency of ["eur", "EURO", "E1R", "", 978]) {
      const bad = await call("PATCH", "/settings", { headers: tenant.admin, body: { currency } });
      expect(bad.status, String(currency)).toBe(400);
      expect(bad.body.errors).toEqual(["currency: must be an ISO 4217 currency code (EUR, USD, ...)"]);
    }
    expect((await settingsOf(tenant.admin)).currency).toBe("USD");
  });

  it("is changed by owners and admins only (403 for a manager), read with a credential only (401), per tenant", async () => {
    await call("PATCH", "/settings", { headers: tenant.admin, body: { currency: "GBP" } });
    const manager = await userWithRole(tenant, "manager");
    const refused = await call("PATCH", "/settings", { headers: manager, body: { currency: "JPY" } });
    expect(refused.status).toBe(403);
    expect((await call("PATCH", "/settings", { body: { currency: "JPY" } })).status).toBe(401);
    expect((await call("GET", "/settings")).status).toBe(401);
    expect((await settingsOf(tenant.admin)).currency).toBe("GBP");
    // Another tenant has its own (none), and setting it leaves this one's alone.
    expect((await settingsOf(other.admin)).currency).toBeNull();
    await call("PATCH", "/settings", { headers: other.admin, body: { currency: "SEK" } });
    expect((await settingsOf(tenant.admin)).currency).toBe("GBP");
  });
});
