import { and, eq } from "drizzle-orm";
import type { Role } from "../auth/scopes";
import type { PlatformScope } from "../db/client";
import { memberships } from "../db/schema/platform";
import { anotherOwnerRemains, lastOwner } from "./last-owner";
import { getMember } from "./read-user";

/** `PUT /users/{id}`: a member's new role; the last owner cannot be demoted (409). */
export async function changeRole(scope: PlatformScope, userId: string, role: Role) {
  const ofMember = and(eq(memberships.tenantId, scope.tenantId), eq(memberships.userId, userId));
  const guard = role === "owner" ? ofMember : and(ofMember, anotherOwnerRemains(scope, userId));
  const result = await scope.db
    .update(memberships)
    .set({ role, updatedAt: new Date().toISOString() })
    .where(guard);
  if (result.meta.changes === 0) {
    await getMember(scope, userId); // 404 when there is no such member
    throw lastOwner();
  }
  return getMember(scope, userId);
}
