// The demo tenant that `npm run dev` seeds into the local platform database (placed on SHARD_0). These are development values,
// committed on purpose; they exist only in local state (never in a deployed database).
import { createHash, pbkdf2Sync } from "node:crypto";

export const DEMO = {
  tenantId: "0193a2b0-0000-7000-8000-000000000001",
  tenantName: "Demo Warehouse",
  userId: "0193a2b0-0000-7000-8000-000000000002",
  email: "owner@demo.example",
  password: "demo-password-1",
  apiKeyId: "0193a2b0-0000-7000-8000-000000000003",
  apiKey: "wms_test_DemoKeyForLocalDevelopmentOnly0000000000",
};

// The same parameters as src/auth/passwords.ts (PBKDF2-SHA256, 100,000 iterations, 32 bytes).
const ITERATIONS = 100_000;
const SALT = "64656d6f2d73616c742d666f722d6465";

const quote = (value) => `'${String(value).replaceAll("'", "''")}'`;

/** Idempotent SQL: running it again changes nothing (INSERT OR IGNORE on fixed ids). */
export function demoSeedSql(now = new Date().toISOString()) {
  const passwordHash = pbkdf2Sync(DEMO.password, Buffer.from(SALT, "hex"), ITERATIONS, 32, "sha256").toString(
    "hex",
  );
  const keyHash = createHash("sha256").update(DEMO.apiKey).digest("hex");
  const rows = [
    `insert or ignore into tenants (id, name, plan, status, shard, created_at, updated_at) values (${quote(DEMO.tenantId)}, ${quote(DEMO.tenantName)}, 'business', 'active', 'SHARD_0', ${quote(now)}, ${quote(now)});`,
    `insert or ignore into users (id, email, name, password_hash, password_salt, password_iterations, created_at, updated_at) values (${quote(DEMO.userId)}, ${quote(DEMO.email)}, 'Demo Owner', ${quote(passwordHash)}, ${quote(SALT)}, ${ITERATIONS}, ${quote(now)}, ${quote(now)});`,
    `insert or ignore into memberships (tenant_id, user_id, role, created_at, updated_at) values (${quote(DEMO.tenantId)}, ${quote(DEMO.userId)}, 'owner', ${quote(now)}, ${quote(now)});`,
    `insert or ignore into api_keys (id, tenant_id, name, prefix, key_hash, scopes, created_by, created_at) values (${quote(DEMO.apiKeyId)}, ${quote(DEMO.tenantId)}, 'Demo admin key', ${quote(DEMO.apiKey.slice(0, 13))}, ${quote(keyHash)}, '["admin"]', ${quote(DEMO.userId)}, ${quote(now)});`,
  ];
  return rows.join("\n");
}
