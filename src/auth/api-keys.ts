import { eq, sql } from "drizzle-orm";
import { randomToken, sha256Hex } from "../crypto/hashing";
import { runBatch } from "../db/batch";
import type { PlatformDb } from "../db/client";
import { compiledOnPlatform } from "../db/compiled";
import { apiKeys, memberships, tenants } from "../db/schema/platform";
import { creatorMembership, keyChainColumns } from "./rights";

export const API_KEY_PREFIXES = ["wms_live_", "wms_test_"] as const;

export function looksLikeApiKey(value: string): boolean {
  return API_KEY_PREFIXES.some((prefix) => value.startsWith(prefix));
}

/** A new key: the plain value (shown once), its hash (stored) and its display prefix. */
export async function generateApiKey(environment: string) {
  const key = `${environment === "production" ? "wms_live_" : "wms_test_"}${randomToken(40)}`;
  return { key, keyHash: await sha256Hex(key), prefix: key.slice(0, 13) };
}

// Every API-key request runs it: compiled once per isolate (src/db/compiled.ts), not rebuilt per request. A batch
// answers rows as objects keyed by column name, so the tenant's id is aliased apart from the key's.
const keyLookup = compiledOnPlatform((db, v: { keyHash: string }) =>
  db
    .select({
      ...keyChainColumns,
      allowedIps: apiKeys.allowedIps,
      lastUsedAt: apiKeys.lastUsedAt,
      tenant: {
        id: sql<string>`${tenants.id}`.as("tenant_id"),
        name: tenants.name,
        plan: tenants.plan,
        status: tenants.status,
        shard: tenants.shard,
      },
    })
    .from(apiKeys)
    .innerJoin(tenants, eq(tenants.id, apiKeys.tenantId))
    .leftJoin(memberships, creatorMembership)
    .where(eq(apiKeys.keyHash, v.keyHash))
    .limit(1),
);

/**
 * The one indexed lookup an API-key request costs (by the key's SHA-256): the key, its tenant, the keys that made
 * it and its creator's membership together: what the key's rights are computed from (`keyRights`, src/auth/rights.ts).
 */
export async function findApiKey(db: PlatformDb, keyHash: string) {
  const [row] = (await runBatch(db, { key: keyLookup({ keyHash }) })).key;
  return row;
}

const LAST_USED_RESOLUTION_MS = 60_000;

/** `lastUsedAt` is written at most once a minute per key, never on every request. */
export function lastUsedIsStale(lastUsedAt: string | null, now: Date): boolean {
  return !lastUsedAt || now.getTime() - Date.parse(lastUsedAt) >= LAST_USED_RESOLUTION_MS;
}

export async function touchApiKey(db: PlatformDb, keyId: string, now: Date): Promise<void> {
  const cutoff = new Date(now.getTime() - LAST_USED_RESOLUTION_MS).toISOString();
  await db
    .update(apiKeys)
    .set({ lastUsedAt: now.toISOString() })
    .where(
      sql`${apiKeys.id} = ${keyId} and (${apiKeys.lastUsedAt} is null or ${apiKeys.lastUsedAt} < ${cutoff})`,
    );
}
