import { and, asc, count, desc, eq, type SQL, sql } from "drizzle-orm";
import type { Role } from "../auth/scopes";
import type { PlatformScope } from "../db/client";
import { readPage } from "../db/pages";
import { memberships, users } from "../db/schema/platform";
import { conflict, notFound } from "../http/errors";
import { offsetOf, type PageQuery } from "../http/pagination";

const memberColumns = {
  id: users.id,
  email: users.email,
  name: users.name,
  role: memberships.role,
  joinedAt: memberships.createdAt,
};

function membersOf(scope: PlatformScope, ...conditions: SQL[]) {
  return scope.db
    .select(memberColumns)
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.tenantId, scope.tenantId), ...conditions));
}

export async function listMembers(
  scope: PlatformScope,
  query: PageQuery & { sort: { direction: "asc" | "desc" } },
) {
  const order = query.sort.direction === "asc" ? asc : desc;
  return readPage(scope, query, {
    rows: membersOf(scope)
      .orderBy(order(memberships.createdAt), order(users.id))
      .limit(query.pageSize)
      .offset(offsetOf(query)),
    count: scope.db
      .select({ value: count() })
      .from(memberships)
      .where(eq(memberships.tenantId, scope.tenantId)),
  });
}

export async function getMember(scope: PlatformScope, userId: string) {
  const [member] = await membersOf(scope, eq(memberships.userId, userId));
  if (!member) throw notFound("User");
  return member;
}

// The tenant's other owners, counted inside the same statement that changes a membership, so two
// concurrent demotions of the last two owners cannot both succeed.
const anotherOwnerRemains = (scope: PlatformScope, userId: string) =>
  sql`(${memberships.role} <> 'owner' or exists (select 1 from memberships m where m.tenant_id = ${scope.tenantId} and m.role = 'owner' and m.user_id <> ${userId}))`;

const lastOwner = () => conflict("The tenant's last owner cannot be removed or demoted");

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
