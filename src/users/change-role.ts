import { and, eq, sql } from "drizzle-orm";
import { revokePendingInvitations, rolesNotGrantable } from "../auth/current-rights";
import type { Role } from "../auth/scopes";
import { type AuditActor, auditRow } from "../db/audit/writer";
import { changesOf, runBatch } from "../db/batch";
import type { PlatformScope } from "../db/client";
import { memberships } from "../db/schema/platform";
import { previousStatementChanged } from "../outbox/outbox";
import { membershipChange } from "./membership-change";
import { anotherOwnerRemains, isOwner, ownerRoleGuard, refusal } from "./owner-rules";
import { getMember } from "./read-user";

/**
 * `PUT /users/{id}`: a member's new role. Only an owner (`actor`: the member the request is accountable to)
 * makes or unmakes an owner (403); the last owner cannot be demoted (409). In the same batch, the invitations
 * the member (or their keys) sent that the new role can no longer grant are revoked (all of them when the member
 * now acts for one merchant). Everything else the member made (keys, subscriptions, jobs) reads the membership at
 * its next use and is narrowed then (src/auth/rights.ts).
 */
export async function changeRole(
  scope: PlatformScope,
  actor: string,
  userId: string,
  role: Role,
  merchantId: string | null,
  by: AuditActor,
) {
  const before = await getMember(scope, userId); // 404 when there is no such member
  const same = before.role === role && before.merchantId === merchantId;
  const ofMember = and(eq(memberships.tenantId, scope.tenantId), eq(memberships.userId, userId));
  const changed = sql`exists (select 1 from memberships n where n.tenant_id = ${scope.tenantId} and n.user_id = ${userId} and n.role = ${role} and n.merchant_id is ${merchantId})`;
  const notGrantable = rolesNotGrantable(role, merchantId);
  const written = await runBatch(scope, {
    changed: scope.db
      .update(memberships)
      .set({ role, merchantId, updatedAt: new Date().toISOString() })
      .where(
        and(
          ofMember,
          ownerRoleGuard(scope, actor),
          role === "owner" ? isOwner(scope, actor) : anotherOwnerRemains(scope, userId),
        ),
      ),
    // Right after the update: written only when it changed the membership, and a role set again records nothing.
    audit: same
      ? undefined
      : auditRow(
          scope,
          by,
          {
            action: membershipChange(before, { role, merchantId }),
            target: { type: "member", id: userId },
            merchantId: merchantId ?? before.merchantId,
            before: { role: before.role, merchantId: before.merchantId },
            after: { role, merchantId },
          },
          { onlyIf: previousStatementChanged },
        ),
    revoked:
      notGrantable.length > 0
        ? revokePendingInvitations(scope.db, scope.tenantId, { member: userId }, notGrantable, changed)
        : undefined,
  });
  const member = await getMember(scope, userId);
  if (changesOf(written.changed) === 0 && (member.role !== role || member.merchantId !== merchantId)) {
    throw await refusal(scope, actor, member.role === "owner" || role === "owner");
  }
  return member;
}
