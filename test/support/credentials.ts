import { call } from "./http";
import type { TestTenant } from "./tenants";

let counter = 0;
const unique = () => `${Date.now().toString(36)}${(counter++).toString(36)}`;

/** Headers for a new API key of `tenant` holding exactly `scopes` (created through POST /api-keys). */
export async function scopedKey(
  tenant: TestTenant,
  scopes: string[],
  options: { allowedIps?: string[]; expiresAt?: string } = {},
): Promise<Record<string, string>> {
  const res = await call("POST", "/api-keys", {
    headers: tenant.admin,
    body: { name: `key ${scopes.join(" ")}`, scopes, ...options },
  });
  if (res.status !== 201) throw new Error(`scopedKey failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { "x-api-key": res.body.data.key };
}

/** Logs in and returns headers (Bearer JWT + X-Tenant-Id) for `tenant`. */
export async function loginHeaders(tenant: TestTenant, email: string, password: string) {
  const res = await call("POST", "/auth/login", { body: { email, password } });
  if (res.status !== 200) throw new Error(`login failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { authorization: `Bearer ${res.body.data.token}`, "x-tenant-id": tenant.id };
}

/** Headers for a new user of `tenant` with `role` (added through POST /users, then logged in). */
export async function userWithRole(tenant: TestTenant, role: string): Promise<Record<string, string>> {
  const email = `${role}-${unique()}@example.com`;
  const password = "member-password-1";
  const res = await call("POST", "/users", {
    headers: tenant.admin,
    body: { email, name: `A ${role}`, password, role },
  });
  if (res.status !== 201) throw new Error(`userWithRole failed: ${res.status} ${JSON.stringify(res.body)}`);
  return loginHeaders(tenant, email, password);
}
