import { uuidv7 } from "uuidv7";
import { generateApiKey } from "../auth/api-keys";
import { grantsAll, type Scope } from "../auth/scopes";
import type { PlatformScope } from "../db/client";
import { apiKeys } from "../db/schema/platform";
import { AppError } from "../http/errors";
import { type ApiKeyRow, apiKeyRecord } from "./records";
import type { CreateApiKeyBody } from "./schemas";

/** The key itself is in this answer only; the platform keeps its hash. */
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
