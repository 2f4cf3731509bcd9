import { and, eq, sql } from "drizzle-orm";
import { revokePendingInvitations, rolesNotGrantable } from "../auth/current-rights";
import { type AuditActor, auditRow } from "../db/audit/writer";
import { changesOf, runBatch } from "../db/batch";
import type { PlatformScope } from "../db/client";
import { memberships } from "../db/schema/platform";
import { previousStatementChanged } from "../outbox/outbox";
import { anotherOwnerRemains, ownerRoleGuard, refusal } from "./owner-rules";
import { getMember } from "./read-user";

/**
 * `DELETE /users/{id}`: the membership goes (the account stays). Only an owner removes an owner (403); the last
 * owner cannot be removed (409). In the same batch, every invitation the member (or their keys) sent that is
 * still pending is revoked.
 */
export async function removeMember(scope: PlatformScope, actor: string, userId: string, by: AuditActor) {
  const member = await getMember(scope, userId);
  const gone = sql`not exists (select 1 from memberships g where g.tenant_id = ${scope.tenantId} and g.user_id = ${userId})`;
  const written = await runBatch(scope, {
    removed: scope.db
      .delete(memberships)
      .where(
        and(
          eq(memberships.tenantId, scope.tenantId),
          eq(memberships.userId, userId),
          ownerRoleGuard(scope, actor),
          anotherOwnerRemains(scope, userId),
        ),
      ),
    audit: auditRow(
      scope,
      by,
      {
        action: "member.removed",
        target: { type: "member", id: userId },
        merchantId: member.merchantId,
        before: { role: member.role, merchantId: member.merchantId },
      },
      { onlyIf: previousStatementChanged },
    ),
    revoked: revokePendingInvitations(
      scope.db,
      scope.tenantId,
      { member: userId },
      rolesNotGrantable(undefined),
      gone,
    ),
  });
  if (changesOf(written.removed) === 0) {
    throw await refusal(scope, actor, (await getMember(scope, userId)).role === "owner");
  }
  return member;
}
