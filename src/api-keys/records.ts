import type { Scope } from "../auth/scopes";
import type { apiKeys } from "../db/schema/platform";

export type ApiKeyRow = typeof apiKeys.$inferSelect;

/** What lists and reads show: never the key itself, nor its hash; of the keys above it, the one that made it. */
export function apiKeyRecord({ keyHash: _hash, tenantId: _tenant, grantorKeys, ...row }: ApiKeyRow) {
  return { ...row, scopes: row.scopes as Scope[], madeWithKey: grantorKeys?.at(-1) ?? null };
}
