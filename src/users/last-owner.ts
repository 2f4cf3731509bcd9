import { sql } from "drizzle-orm";
import type { PlatformScope } from "../db/client";
import { memberships } from "../db/schema/platform";
import { conflict } from "../http/errors";

// The tenant's other owners, counted inside the same statement that changes a membership, so two
// concurrent demotions of the last two owners cannot both succeed.
export const anotherOwnerRemains = (scope: PlatformScope, userId: string) =>
  sql`(${memberships.role} <> 'owner' or exists (select 1 from memberships m where m.tenant_id = ${scope.tenantId} and m.role = 'owner' and m.user_id <> ${userId}))`;

export const lastOwner = () => conflict("The tenant's last owner cannot be removed or demoted");
