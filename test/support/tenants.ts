import { env } from "cloudflare:workers";
import { bearer, call } from "./http";

export const PLATFORM = { authorization: `Bearer ${env.PLATFORM_ADMIN_TOKEN}` };

let counter = 0;
const unique = () =>
  `${Date.now().toString(36)}${(counter++).toString(36)}${Math.random().toString(36).slice(2, 6)}`;

export interface TestTenant {
  id: string;
  plan: string;
  /** The first admin API key, with the headers to send it. */
  adminKey: string;
  admin: Record<string, string>;
  owner: { id: string; email: string; password: string };
}

/** Creates a tenant through the platform endpoint, as an operator would, and returns its credentials. */
export async function createTenant(
  options: { plan?: "starter" | "business" | "enterprise"; name?: string } = {},
): Promise<TestTenant> {
  const email = `owner-${unique()}@example.com`;
  const password = "owner-password-1";
  const res = await call("POST", "/platform/tenants", {
    headers: PLATFORM,
    body: {
      name: options.name ?? `Tenant ${unique()}`,
      plan: options.plan ?? "enterprise",
      owner: { email, password, name: "Owner" },
    },
  });
  if (res.status !== 201) throw new Error(`createTenant failed: ${res.status} ${JSON.stringify(res.body)}`);
  const { tenant, owner, apiKey } = res.body.data;
  return {
    id: tenant.id,
    plan: tenant.plan,
    adminKey: apiKey.key,
    admin: bearer(apiKey.key),
    owner: { id: owner.id, email, password },
  };
}
