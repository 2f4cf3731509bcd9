import { and, eq, isNull } from "drizzle-orm";
import type { PlatformScope } from "../db/client";
import { apiKeys } from "../db/schema/platform";
import { notFound } from "../http/errors";
import { apiKeyRecord } from "./records";

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
