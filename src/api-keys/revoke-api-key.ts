import { and, eq, isNull, sql } from "drizzle-orm";
import { revokePendingInvitations, rolesNotGrantable } from "../auth/current-rights";
import { type AuditActor, auditRow } from "../db/audit/writer";
import { runBatch } from "../db/batch";
import type { PlatformScope } from "../db/client";
import { apiKeys } from "../db/schema/platform";
import { notFound } from "../http/errors";
import { apiKeyRecord } from "./records";

/**
 * Revokes a key, effective on its very next request; revoking a revoked key changes nothing. In the same batch,
 * the invitations the key sent that are still pending are revoked: nothing it granted outlives it.
 */
export async function revokeApiKey(scope: PlatformScope, id: string, by: AuditActor) {
  const revokedAt = new Date().toISOString();
  const ofKey = and(eq(apiKeys.tenantId, scope.tenantId), eq(apiKeys.id, id));
  const { key } = await runBatch(scope, {
    revoked: scope.db
      .update(apiKeys)
      .set({ revokedAt })
      .where(and(ofKey, isNull(apiKeys.revokedAt))),
    invitations: revokePendingInvitations(
      scope.db,
      scope.tenantId,
      { key: id },
      rolesNotGrantable(undefined),
      sql`exists (select 1 from api_keys k where k.id = ${id} and k.tenant_id = ${scope.tenantId} and k.revoked_at is not null)`,
    ),
    key: scope.db.select().from(apiKeys).where(ofKey).limit(1),
    // Only when this request revoked it: revoking a revoked key changes nothing and records nothing.
    audit: auditRow(
      scope,
      by,
      {
        action: "api_key.revoked",
        target: { type: "api_key", id },
        before: { revokedAt: null },
        after: { revokedAt },
      },
      {
        onlyIf: sql`exists (select 1 from api_keys k where k.id = ${id} and k.tenant_id = ${scope.tenantId} and k.revoked_at = ${revokedAt})`,
      },
    ),
  });
  const [row] = key;
  if (!row) throw notFound("API key");
  return apiKeyRecord(row);
}
