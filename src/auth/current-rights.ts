import { and, eq, inArray, isNull, or, type SQL, sql } from "drizzle-orm";
import { type PlatformDb, platformDb } from "../db/client";
import { apiKeys, invitations, memberships } from "../db/schema/platform";
import type { Bindings } from "../env";
import {
  creatorMembership,
  keyChainColumns,
  keyRights,
  memberRights,
  type Rights,
  roleRights,
} from "./rights";
import { grants, type Role, roles } from "./scopes";

/** A credential of a tenant that made something which acts later on its behalf (an invitation, a subscription). */
export interface Grantor {
  type: "user" | "api_key";
  id: string;
}

/** A grantor's rights in the tenant now (one indexed read), judged as its own requests would be (src/auth/rights.ts). */
export async function currentRights(
  db: PlatformDb,
  tenantId: string,
  grantor: Grantor,
  now = new Date(),
): Promise<Rights> {
  if (grantor.type === "user") {
    const [member] = await db
      .select({ role: memberships.role, merchantId: memberships.merchantId })
      .from(memberships)
      .where(and(eq(memberships.tenantId, tenantId), eq(memberships.userId, grantor.id)))
      .limit(1);
    return memberRights(grantor.id, member);
  }
  const [key] = await db
    .select(keyChainColumns)
    .from(apiKeys)
    .leftJoin(memberships, creatorMembership)
    .where(and(eq(apiKeys.tenantId, tenantId), eq(apiKeys.id, grantor.id)))
    .limit(1);
  if (!key) return { lost: `API key ${grantor.id} no longer exists` };
  return keyRights(key, now);
}

/** `currentRights` for work that runs outside a request (the webhook queue consumer). */
export const currentRightsIn = (env: Bindings, tenantId: string, grantor: Grantor, now = new Date()) =>
  currentRights(platformDb(env), tenantId, grantor, now);

/**
 * Whether rights may make someone a member with `role`: managing people needs `admin` over the whole tenant (a
 * credential acting for one merchant administers nothing), and only an owner makes owners.
 */
export function mayGrant(rights: Rights, role: Role): boolean {
  if ("lost" in rights) return false;
  return (
    rights.merchantId === null &&
    grants(rights.scopes, "admin") &&
    (role !== "owner" || rights.role === "owner")
  );
}

/**
 * The roles a member with `role`, acting for `merchantId`, can no longer grant (all of them when they leave:
 * `undefined`; all of them while they act for one merchant).
 */
export function rolesNotGrantable(role: Role | undefined, merchantId: string | null = null): Role[] {
  if (role === undefined) return [...roles];
  const rights = roleRights(role, merchantId);
  return roles.filter((invited) => !mayGrant(rights, invited));
}

/**
 * Revokes the pending invitations `grantor` sent (a member's own and those of the keys they created, which act
 * with their rights; or those of one key and of the keys made with it) inviting with one of `roles`, if `onlyIf` holds: put in the batch that takes
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
      ? and(
          eq(invitations.invitedByType, "api_key"),
          or(
            eq(invitations.invitedById, grantor.key),
            // The keys it made (and theirs), which work only while it does.
            inArray(
              invitations.invitedById,
              db
                .select({ id: apiKeys.id })
                .from(apiKeys)
                .where(
                  and(
                    eq(apiKeys.tenantId, tenantId),
                    sql`exists (select 1 from json_each(${apiKeys.grantorKeys}) where value = ${grantor.key})`,
                  ),
                ),
            ),
          ),
        )
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
