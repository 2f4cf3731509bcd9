import { and, eq, sql } from "drizzle-orm";
import type { PlatformScope } from "../db/client";
import { memberships } from "../db/schema/platform";
import { AppError, conflict } from "../http/errors";

// The tenant's other owners, counted inside the same statement that changes a membership, so two
// concurrent demotions of the last two owners cannot both succeed.
export const anotherOwnerRemains = (scope: PlatformScope, userId: string) =>
  sql`(${memberships.role} <> 'owner' or exists (select 1 from memberships m where m.tenant_id = ${scope.tenantId} and m.role = 'owner' and m.user_id <> ${userId}))`;

const lastOwner = () => conflict("The tenant's last owner cannot be removed or demoted");

/** Whether `actor` (the member a request is accountable to) is an owner, judged inside the statement it guards. */
export const isOwner = (scope: PlatformScope, actor: string) =>
  sql`exists (select 1 from memberships o where o.tenant_id = ${scope.tenantId} and o.user_id = ${actor} and o.role = 'owner')`;

/** Only an owner grants, changes or removes the owner role: guards a statement on the membership's row. */
export const ownerRoleGuard = (scope: PlatformScope, actor: string) =>
  sql`(${memberships.role} <> 'owner' or ${isOwner(scope, actor)})`;

/**
 * Why a guarded change of a membership changed nothing: it touched the owner role and `actor` is no owner
 * (403), or it would have left the tenant without an owner (409).
 */
export async function refusal(scope: PlatformScope, actor: string, touchesOwner: boolean): Promise<AppError> {
  if (touchesOwner) {
    const [row] = await scope.db
      .select({ role: memberships.role })
      .from(memberships)
      .where(and(eq(memberships.tenantId, scope.tenantId), eq(memberships.userId, actor)));
    if (row?.role !== "owner") {
      return new AppError("FORBIDDEN", "Only an owner can grant, change or remove the owner role");
    }
  }
  return lastOwner();
}
