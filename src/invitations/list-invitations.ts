import { and, eq } from "drizzle-orm";
import type { PlatformScope } from "../db/client";
import { readNewestFirst } from "../db/pages";
import { invitations } from "../db/schema/platform";
import { hasStatus, invitationRecord } from "../identity/invitation-records";
import type { ListInvitationsQuery } from "./schemas";

/** `GET /users/invitations`: the tenant's invitations, newest first, optionally of one status. */
export function listInvitations(scope: PlatformScope, query: ListInvitationsQuery, now = new Date()) {
  const where = and(
    eq(invitations.tenantId, scope.tenantId),
    query.status ? hasStatus(query.status, now) : undefined,
  );
  return readNewestFirst(scope, invitations, where, query, (row) => invitationRecord(row, now));
}
