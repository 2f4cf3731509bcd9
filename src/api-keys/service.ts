import { and, asc, count, desc, eq, isNull } from "drizzle-orm";
import { uuidv7 } from "uuidv7";
import { generateApiKey } from "../auth/api-keys";
import { grantsAll, type Scope } from "../auth/scopes";
import type { PlatformScope } from "../db/client";
import { apiKeys } from "../db/schema/platform";
import { AppError, notFound } from "../http/errors";
import { offsetOf, paged } from "../http/pagination";
import type { CreateApiKeyBody, ListApiKeysQuery } from "./schemas";

type ApiKeyRow = typeof apiKeys.$inferSelect;

/** What lists and reads show: never the key itself, nor its hash. */
function apiKeyRecord({ keyHash: _hash, tenantId: _tenant, ...row }: ApiKeyRow) {
  return { ...row, scopes: row.scopes as Scope[] };
}

export async function createApiKey(
  scope: PlatformScope,
  environment: string,
  creator: { id: string; scopes: readonly Scope[] },
  input: CreateApiKeyBody,
) {
  if (!grantsAll(creator.scopes, input.scopes)) {
    throw new AppError("FORBIDDEN", "A key cannot be given a scope its creator does not hold");
  }
  const key = await generateApiKey(environment);
  const row: ApiKeyRow = {
    id: uuidv7(),
    tenantId: scope.tenantId,
    name: input.name,
    prefix: key.prefix,
    keyHash: key.keyHash,
    scopes: [...new Set(input.scopes)],
    allowedIps: input.allowedIps?.length ? input.allowedIps : null,
    expiresAt: input.expiresAt ? new Date(input.expiresAt).toISOString() : null,
    lastUsedAt: null,
    revokedAt: null,
    createdBy: creator.id,
    createdAt: new Date().toISOString(),
  };
  await scope.db.insert(apiKeys).values(row);
  return { ...apiKeyRecord(row), key: key.key };
}

const sortColumns = { createdAt: apiKeys.createdAt, name: apiKeys.name };

export async function listApiKeys(scope: PlatformScope, query: ListApiKeysQuery) {
  const order = query.sort.direction === "asc" ? asc : desc;
  const ofTenant = eq(apiKeys.tenantId, scope.tenantId);
  const [rows, [total]] = await scope.db.batch([
    scope.db
      .select()
      .from(apiKeys)
      .where(ofTenant)
      .orderBy(order(sortColumns[query.sort.field]), order(apiKeys.id))
      .limit(query.pageSize)
      .offset(offsetOf(query)),
    scope.db.select({ value: count() }).from(apiKeys).where(ofTenant),
  ]);
  return paged(rows.map(apiKeyRecord), total?.value ?? 0, query);
}

/** Revokes a key, effective on its very next request; revoking a revoked key changes nothing. */
export async function revokeApiKey(scope: PlatformScope, id: string) {
  const ofKey = and(eq(apiKeys.tenantId, scope.tenantId), eq(apiKeys.id, id));
  await scope.db
    .update(apiKeys)
    .set({ revokedAt: new Date().toISOString() })
    .where(and(ofKey, isNull(apiKeys.revokedAt)));
  const [row] = await scope.db.select().from(apiKeys).where(ofKey).limit(1);
  if (!row) throw notFound("API key");
  return apiKeyRecord(row);
}
