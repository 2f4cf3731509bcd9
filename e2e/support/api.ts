import createClient from "openapi-fetch";
import { inject } from "vitest";
import type { paths } from "../../web/src/api/openapi";

const origin = inject("origin");
// The development value of PLATFORM_ADMIN_TOKEN (as bench/lib.mjs uses): `npm run dev` serves with it.
const PLATFORM_TOKEN = "dev-only-platform-admin-token";

/** The API's typed client (the same generated types as the web app), authenticated by `headers`. */
export function apiClient(headers: Record<string, string> = {}) {
  return createClient<paths>({ baseUrl: origin, headers });
}

/** `data` of a success envelope; anything else fails the test with the API's answer. */
export async function ok<T>(
  call: Promise<{ data?: { data: T } | string; error?: unknown; response: Response }>,
) {
  const { data, error, response } = await call;
  if (!response.ok || typeof data !== "object") {
    throw new Error(`${response.status} ${response.url}: ${JSON.stringify(error ?? data)}`);
  }
  return data.data;
}

export interface TestTenant {
  id: string;
  name: string;
  email: string;
  password: string;
  apiKey: string;
  api: ReturnType<typeof apiClient>;
}

let counter = 0;
const unique = () =>
  `${Date.now().toString(36)}${(++counter).toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** A fresh tenant with its owner (who can sign in) and an admin key, so each test file has its own data. */
export async function createTenant(options: { name?: string; email?: string; password?: string } = {}) {
  const id = unique();
  const name = options.name ?? `E2E ${id}`;
  const email = options.email ?? `owner-${id}@e2e.example`;
  const password = options.password ?? "e2e-password-1";
  const created = await ok(
    apiClient({ authorization: `Bearer ${PLATFORM_TOKEN}` }).POST("/api/v1/platform/tenants", {
      body: { name, plan: "enterprise", owner: { email, password, name: "E2E Owner" } },
    }),
  );
  const apiKey = created.apiKey.key;
  return { id: created.tenant.id, name, email, password, apiKey, api: apiClient({ "x-api-key": apiKey }) };
}
