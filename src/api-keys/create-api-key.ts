import { and, eq } from "drizzle-orm";
import { uuidv7 } from "uuidv7";
import { generateApiKey } from "../auth/api-keys";
import { grantsAll, type Scope } from "../auth/scopes";
import { type AuditActor, auditRow } from "../db/audit/writer";
import { runBatch } from "../db/batch";
import type { PlatformScope } from "../db/client";
import { apiKeys } from "../db/schema/platform";
import { AppError } from "../http/errors";
import { boundedByMaker } from "./key-bounds";
import { type ApiKeyRow, apiKeyRecord } from "./records";
import type { CreateApiKeyBody } from "./schemas";

/**
 * `POST /api-keys`: the key itself is in this answer only; the platform keeps its hash. A key is never broader
 * than whoever makes it: its scopes and merchant are within the creator's, and a key made with a key (`creator.key`)
 * keeps within that key's allow list and expiry (`boundedByMaker`) and records the keys above it, whose revocation or
 * expiry stops it at its next request.
 */
export async function createApiKey(
  scope: PlatformScope,
  environment: string,
  creator: { id: string; scopes: readonly Scope[]; merchantId: string | null; key?: string },
  input: CreateApiKeyBody,
  by: AuditActor,
) {
  if (!grantsAll(creator.scopes, input.scopes)) {
    throw new AppError("FORBIDDEN", "A key cannot be given a scope its creator does not hold");
  }
  if (creator.merchantId && input.merchantId !== creator.merchantId) {
    throw new AppError(
      "FORBIDDEN",
      `A key cannot reach beyond merchant ${creator.merchantId}, as its creator acts for it only`,
    );
  }

  const [maker] = creator.key
    ? await scope.db
        .select({
          allowedIps: apiKeys.allowedIps,
          expiresAt: apiKeys.expiresAt,
          grantorKeys: apiKeys.grantorKeys,
        })
        .from(apiKeys)
        .where(and(eq(apiKeys.tenantId, scope.tenantId), eq(apiKeys.id, creator.key)))
    : [];
  const bounds = boundedByMaker(input, maker ?? { allowedIps: null, expiresAt: null });
  if ("errors" in bounds) {
    throw new AppError("FORBIDDEN", "A key made with a key cannot be broader than that key", {
      errors: bounds.errors,
    });
  }
  const key = await generateApiKey(environment);
  const row: ApiKeyRow = {
    id: uuidv7(),
    tenantId: scope.tenantId,
    name: input.name,
    prefix: key.prefix,
    keyHash: key.keyHash,
    scopes: [...new Set(input.scopes)],
    allowedIps: bounds.allowedIps,
    expiresAt: bounds.expiresAt,
    lastUsedAt: null,
    revokedAt: null,
    createdBy: creator.id,
    merchantId: input.merchantId ?? null,
    // It works only while its maker and every key above its maker do (src/auth/rights.ts).
    grantorKeys: creator.key ? [...(maker?.grantorKeys ?? []), creator.key] : null,
    createdAt: new Date().toISOString(),
  };
  const record = apiKeyRecord(row);
  await runBatch(scope, {
    key: scope.db.insert(apiKeys).values(row),
    audit: auditRow(scope, by, {
      action: "api_key.created",
      target: { type: "api_key", id: row.id },
      merchantId: row.merchantId,
      after: record,
    }),
  });
  return { ...record, key: key.key };
}
