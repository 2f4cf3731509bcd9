import { and, eq, inArray, isNull, or, type SQL } from "drizzle-orm";
import { type PlatformDb, platformDb } from "../db/client";
import { apiKeys, invitations, memberships } from "../db/schema/platform";
import type { Bindings } from "../env";
import { cappedBy, grants, type Role, roles, type Scope, scopesByRole } from "./scopes";

/** A credential of a tenant that made something which acts later on its behalf (an invitation, a subscription). */
export interface Grantor {
  type: "user" | "api_key";
  id: string;
}

/**
 * What a grantor may do in the tenant now: its scopes (a key's capped by its creator's role, as on each of the
 * key's requests) and the role of the member accountable for it; or, when it may do nothing any more, why.
 */
export type Rights = { scopes: Scope[]; role: Role } | { lost: string };

/** A grantor's rights in the tenant now (one indexed read), judged as its own requests would be. */
export async function currentRights(
  db: PlatformDb,
  tenantId: string,
  grantor: Grantor,
  now = new Date(),
): Promise<Rights> {
  if (grantor.type === "user") {
    const [member] = await db
      .select({ role: memberships.role })
      .from(memberships)
      .where(and(eq(memberships.tenantId, tenantId), eq(memberships.userId, grantor.id)))
      .limit(1);
    if (!member) return { lost: `user ${grantor.id} is no longer a member of the tenant` };
    return { scopes: [...scopesByRole[member.role]], role: member.role };
  }
  const [key] = await db
    .select({
      scopes: apiKeys.scopes,
      expiresAt: apiKeys.expiresAt,
      revokedAt: apiKeys.revokedAt,
      creatorRole: memberships.role,
    })
    .from(apiKeys)
    .leftJoin(
      memberships,
      and(eq(memberships.tenantId, apiKeys.tenantId), eq(memberships.userId, apiKeys.createdBy)),
    )
    .where(and(eq(apiKeys.tenantId, tenantId), eq(apiKeys.id, grantor.id)))
    .limit(1);
  const name = `API key ${grantor.id}`;
  if (!key) return { lost: `${name} no longer exists` };
  if (key.revokedAt) return { lost: `${name} was revoked` };
  if (key.expiresAt && Date.parse(key.expiresAt) <= now.getTime()) return { lost: `${name} expired` };
  if (!key.creatorRole) return { lost: `the member who created ${name} left the tenant` };
  return {
    scopes: cappedBy(key.scopes as Scope[], scopesByRole[key.creatorRole]),
    role: key.creatorRole,
  };
}

/** `currentRights` for work that runs outside a request (the webhook queue consumer). */
export const currentRightsIn = (env: Bindings, tenantId: string, grantor: Grantor, now = new Date()) =>
  currentRights(platformDb(env), tenantId, grantor, now);

/** Whether rights may make someone a member with `role`: managing people needs `admin`, and only an owner makes owners. */
export function mayGrant(rights: Rights, role: Role): boolean {
  if ("lost" in rights) return false;
  return grants(rights.scopes, "admin") && (role !== "owner" || rights.role === "owner");
}

/** The roles a member with `role` can no longer grant (all of them when they leave: `undefined`). */
export function rolesNotGrantable(role: Role | undefined): Role[] {
  if (role === undefined) return [...roles];
  const rights = { scopes: [...scopesByRole[role]], role };
  return roles.filter((invited) => !mayGrant(rights, invited));
}

/**
 * Revokes the pending invitations `grantor` sent (a member's own and those of the keys they created, which act
 * with their rights; or one key's) inviting with one of `roles`, if `onlyIf` holds: put in the batch that takes
 * the right away (removal, demotion, key revocation), so no invitation outlives its sender's right to send it.
 */
export function revokePendingInvitations(
  db: PlatformDb,
  tenantId: string,
  grantor: { member: string } | { key: string },
  rolesToRevoke: readonly Role[],
  onlyIf: SQL,
  now = new Date(),
) {
  const sentBy =
    "key" in grantor
      ? and(eq(invitations.invitedByType, "api_key"), eq(invitations.invitedById, grantor.key))
      : or(
          and(eq(invitations.invitedByType, "user"), eq(invitations.invitedById, grantor.member)),
          and(
            eq(invitations.invitedByType, "api_key"),
            inArray(
              invitations.invitedById,
              db
                .select({ id: apiKeys.id })
                .from(apiKeys)
                .where(and(eq(apiKeys.tenantId, tenantId), eq(apiKeys.createdBy, grantor.member))),
            ),
          ),
        );
  return db
    .update(invitations)
    .set({ revokedAt: now.toISOString() })
    .where(
      and(
        eq(invitations.tenantId, tenantId),
        isNull(invitations.acceptedAt),
        isNull(invitations.revokedAt),
        inArray(invitations.role, [...rolesToRevoke]),
        sentBy,
        onlyIf,
      ),
    );
}
