import { and, eq, type SQL } from "drizzle-orm";
import type { PlatformScope } from "../db/client";
import { memberships, users } from "../db/schema/platform";

/** A member as the API shows it: the account's id, email and name, and the role in this tenant. */
const memberColumns = {
  id: users.id,
  email: users.email,
  name: users.name,
  role: memberships.role,
  merchantId: memberships.merchantId,
  joinedAt: memberships.createdAt,
};

/** The tenant's members matching `conditions`, as records. */
export function membersOf(scope: PlatformScope, ...conditions: SQL[]) {
  return scope.db
    .select(memberColumns)
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.tenantId, scope.tenantId), ...conditions));
}
