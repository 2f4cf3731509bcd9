import { asc, count, desc, eq } from "drizzle-orm";
import type { PlatformScope } from "../db/client";
import { readPage } from "../db/pages";
import { memberships, users } from "../db/schema/platform";
import type { PageQuery } from "../http/pagination";
import { membersOf } from "./records";

/** `GET /users`: the tenant's members, by when they joined. */
export async function listMembers(
  scope: PlatformScope,
  query: PageQuery & { sort: { direction: "asc" | "desc" } },
) {
  const order = query.sort.direction === "asc" ? asc : desc;
  return readPage(scope, query, {
    rows: membersOf(scope),
    order: [order(memberships.createdAt), order(users.id)],
    count: scope.db
      .select({ value: count() })
      .from(memberships)
      .where(eq(memberships.tenantId, scope.tenantId)),
  });
}
