import { and, eq, sql } from "drizzle-orm";
import { revokePendingInvitations, rolesNotGrantable } from "../auth/current-rights";
import { changesOf, runBatch } from "../db/batch";
import type { PlatformScope } from "../db/client";
import { memberships } from "../db/schema/platform";
import { anotherOwnerRemains, ownerRoleGuard, refusal } from "./owner-rules";
import { getMember } from "./read-user";

/**
 * `DELETE /users/{id}`: the membership goes (the account stays). Only an owner removes an owner (403); the last
 * owner cannot be removed (409). In the same batch, every invitation the member (or their keys) sent that is
 * still pending is revoked.
 */
export async function removeMember(scope: PlatformScope, actor: string, userId: string) {
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
