import { and, asc, count, desc, eq, isNull } from "drizzle-orm";
import { uuidv7 } from "uuidv7";
import { generateApiKey } from "../auth/api-keys";
import { grantsAll, type Scope } from "../auth/scopes";
import type { TenantDb } from "../db/client";
import { apiKeys } from "../db/schema";
import { AppError, notFound } from "../http/errors";
import { offsetOf, paged } from "../http/pagination";
import type { CreateApiKeyBody, ListApiKeysQuery } from "./schemas";

type ApiKeyRow = typeof apiKeys.$inferSelect;

/** What lists and reads show: never the key itself, nor its hash. */
function apiKeyRecord({ keyHash: _hash, tenantId: _tenant, ...row }: ApiKeyRow) {
  return { ...row, scopes: row.scopes as Scope[] };
}

export async function createApiKey(
  tdb: TenantDb,
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
    tenantId: tdb.tenantId,
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
  await tdb.db.insert(apiKeys).values(row);
  return { ...apiKeyRecord(row), key: key.key };
}

const sortColumns = { createdAt: apiKeys.createdAt, name: apiKeys.name };

export async function listApiKeys(tdb: TenantDb, query: ListApiKeysQuery) {
  const order = query.sort.direction === "asc" ? asc : desc;
  const ofTenant = eq(apiKeys.tenantId, tdb.tenantId);
  const [rows, [total]] = await tdb.db.batch([
    tdb.db
      .select()
      .from(apiKeys)
      .where(ofTenant)
      .orderBy(order(sortColumns[query.sort.field]), order(apiKeys.id))
      .limit(query.pageSize)
      .offset(offsetOf(query)),
    tdb.db.select({ value: count() }).from(apiKeys).where(ofTenant),
  ]);
  return paged(rows.map(apiKeyRecord), total?.value ?? 0, query);
}

/** Revokes a key, effective on its very next request; revoking a revoked key changes nothing. */
export async function revokeApiKey(tdb: TenantDb, id: string) {
  const ofKey = and(eq(apiKeys.tenantId, tdb.tenantId), eq(apiKeys.id, id));
  await tdb.db
    .update(apiKeys)
    .set({ revokedAt: new Date().toISOString() })
    .where(and(ofKey, isNull(apiKeys.revokedAt)));
  const [row] = await tdb.db.select().from(apiKeys).where(ofKey).limit(1);
  if (!row) throw notFound("API key");
  return apiKeyRecord(row);
}
