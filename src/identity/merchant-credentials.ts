import { and, eq, gt, isNull, or } from "drizzle-orm";
import { runBatch } from "../db/batch";
import type { PlatformScope } from "../db/client";
import { apiKeys, invitations, memberships, users } from "../db/schema/platform";
import { hasStatus } from "./invitation-records";

/**
 * What still acts for a merchant (read on the platform, where credentials live): its live keys (neither revoked nor
 * expired), the members restricted to it and the pending invitations naming it, one line each, naming them. A
 * merchant is not deleted while any is left (docs/decisions/merchants.md, "Delete"): `DELETE /merchants/{id}` passes
 * this read in, since the merchant lives on the tenant's shard and its credentials here.
 */
export async function credentialsActingFor(scope: PlatformScope, merchantId: string, now = new Date()) {
  const at = now.toISOString();
  const { keys, members, invited } = await runBatch(scope, {
    keys: scope.db
      .select({ id: apiKeys.id, name: apiKeys.name })
      .from(apiKeys)
      .where(
        and(
          eq(apiKeys.tenantId, scope.tenantId),
          eq(apiKeys.merchantId, merchantId),
          isNull(apiKeys.revokedAt),
          or(isNull(apiKeys.expiresAt), gt(apiKeys.expiresAt, at)),
        ),
      ),
    members: scope.db
      .select({ id: users.id, email: users.email })
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.userId))
      .where(and(eq(memberships.tenantId, scope.tenantId), eq(memberships.merchantId, merchantId))),
    invited: scope.db
      .select({ id: invitations.id, email: invitations.email })
      .from(invitations)
      .where(
        and(
          eq(invitations.tenantId, scope.tenantId),
          eq(invitations.merchantId, merchantId),
          hasStatus("pending", now),
        ),
      ),
  });
  return [
    ...keys.map((k) => `apiKeys: ${k.name} (${k.id}) acts for this merchant`),
    ...members.map((m) => `users: ${m.email} (${m.id}) acts for this merchant`),
    ...invited.map((i) => `invitations: ${i.email} (${i.id}) is invited to act for this merchant`),
  ];
}
