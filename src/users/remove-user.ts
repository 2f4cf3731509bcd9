import { and, eq } from "drizzle-orm";
import type { PlatformScope } from "../db/client";
import { memberships } from "../db/schema/platform";
import { anotherOwnerRemains, lastOwner } from "./last-owner";
import { getMember } from "./read-user";

/** `DELETE /users/{id}`: the membership goes (the account stays); the last owner cannot be removed (409). */
export async function removeMember(scope: PlatformScope, userId: string) {
  const member = await getMember(scope, userId);
  const result = await scope.db
    .delete(memberships)
    .where(
      and(
        eq(memberships.tenantId, scope.tenantId),
        eq(memberships.userId, userId),
        anotherOwnerRemains(scope, userId),
      ),
    );
  if (result.meta.changes === 0) throw lastOwner();
  return member;
}
