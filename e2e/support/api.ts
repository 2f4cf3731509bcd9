import { readFileSync } from "node:fs";
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
  if (!created.apiKey) throw new Error(`${email} already had an account: the tenant's owner is only invited`);
  const apiKey = created.apiKey.key;
  return { id: created.tenant.id, name, email, password, apiKey, api: apiClient({ "x-api-key": apiKey }) };
}

const serverLog = inject("serverLog");

/** The link of the newest mail to `to`, from the `[dev-mail]` line wrangler dev printed (waits for it). */
export async function mailedLink(to: string): Promise<string> {
  const line = new RegExp(
    `^\\[dev-mail\\] to=${to.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} subject=.* link=(\\S+)$`,
    "gm",
  );
  const deadline = Date.now() + 15_000;
  for (;;) {
    const links = [...readFileSync(serverLog, "utf8").matchAll(line)].map((match) => match[1] as string);
    if (links.length > 0) return links.at(-1) as string;
    if (Date.now() > deadline) throw new Error(`no mail to ${to} in ${serverLog}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A new member of `tenant`, as a person joins: invited by the admin key, the mailed link accepted with a password. */
export async function invitedMember(
  tenant: TestTenant,
  member: {
    email: string;
    name: string;
    password: string;
    role: "viewer" | "operator" | "manager" | "admin" | "owner";
  },
) {
  await ok(tenant.api.POST("/api/v1/users", { body: { email: member.email, role: member.role } }));
  const token = new URL(await mailedLink(member.email)).searchParams.get("token") ?? "";
  const accepted = await ok(
    apiClient().POST("/api/v1/auth/invitations/accept", {
      body: { token, password: member.password, name: member.name },
    }),
  );
  if (!("user" in accepted)) throw new Error(`${member.email} already had an account`);
  return accepted.user;
}

/** An existing account joins `tenant` as a person would: invited by the admin key, accepted signed in. */
export async function joinedBy(
  tenant: TestTenant,
  person: { email: string; password: string },
  role: "viewer" | "operator" | "manager" | "admin" | "owner",
) {
  await ok(tenant.api.POST("/api/v1/users", { body: { email: person.email, role } }));
  const token = new URL(await mailedLink(person.email)).searchParams.get("token") ?? "";
  const session = await ok(
    apiClient().POST("/api/v1/auth/login", { body: { email: person.email, password: person.password } }),
  );
  await ok(
    apiClient({ authorization: `Bearer ${session.token}` }).POST("/api/v1/auth/invitations/accept", {
      body: { token },
    }),
  );
}
