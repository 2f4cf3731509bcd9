import { describe, expect, it } from "vitest";
import { createTenant, loginHeaders } from "./support/builders";
import { call } from "./support/http";

// Every authenticated request of a tenant spends its plan's budget, including the routes that need no scope:
// a Starter tenant's 61st request within a minute is a 429 whichever of them it is.

async function spend(n: number, path: string, headers: Record<string, string>) {
  const statuses: number[] = [];
  for (let i = 0; i < n; i++) statuses.push((await call("GET", path, { headers })).status);
  return statuses;
}

describe("routes without a scope are counted by the tenant's rate limit", () => {
  it.each([
    ["/auth/me", 200],
    ["/reports", 200],
    ["/reports/no-such-report", 400],
    ["/reports/low-stock", 200],
  ])("a Starter tenant's 61st request of GET %s is a 429", async (path, status) => {
    const tenant = await createTenant({ plan: "starter" });
    expect(new Set(await spend(60, path, tenant.admin))).toEqual(new Set([status]));
    const refused = await call("GET", path, { headers: tenant.admin });
    expect(refused.status).toBe(429);
    expect(refused.headers.get("Retry-After")).toBeTruthy();
  });

  it("counts /auth/me against the tenant a signed-in user names in X-Tenant-Id; without one it is the user's", async () => {
    const tenant = await createTenant({ plan: "starter" });
    const user = await loginHeaders(tenant, tenant.owner.email, tenant.owner.password);
    const first = await call("GET", "/auth/me", { headers: user });
    expect(first.status).toBe(200);
    expect(first.headers.get("X-RateLimit-Remaining")).toBe("59");
    await spend(59, "/auth/me", user);
    expect((await call("GET", "/auth/me", { headers: user })).status).toBe(429);
    expect((await call("GET", "/reports", { headers: tenant.admin })).status).toBe(429);
    const { "x-tenant-id": _, ...bare } = user;
    const own = await call("GET", "/auth/me", { headers: bare });
    expect(own.status).toBe(200);
    expect(own.headers.has("X-RateLimit-Limit")).toBe(false);
  });

  it("a user cannot spend another tenant's budget by naming it", async () => {
    const victim = await createTenant({ plan: "starter" });
    const attacker = await createTenant({ plan: "starter" });
    const user = await loginHeaders(attacker, attacker.owner.email, attacker.owner.password);
    const res = await call("GET", "/auth/me", { headers: { ...user, "x-tenant-id": victim.id } });
    expect(res.status).toBe(403);
    const untouched = await call("GET", "/reports", { headers: victim.admin });
    expect(untouched.headers.get("X-RateLimit-Remaining")).toBe("59");
  });
});
