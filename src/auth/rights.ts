import { and, eq, sql } from "drizzle-orm";
import { apiKeys, memberships } from "../db/schema/platform";
import { cappedBy, grantsAll, type Role, type Scope, scopesByRole } from "./scopes";

// The one rule for every derived right (docs/decisions/identity.md, "Rights follow their grantor"): whatever a
// principal made (a key, a key made with a key, an invitation, a subscription, a job) acts at each use with at most
// the current rights of every principal above it. A chain ends at a member: the member's role and merchant, then
// each key's own scopes, merchant, expiry and revocation, each narrowing what is above it. Every use (a key's
// request, a delivery, a job's step, an acceptance) computes them here, from rows read at that use.

/**
 * What a credential may do in a tenant now: its scopes, the role of the member accountable for it and the merchant
 * it acts for (null: the whole tenant); or, when it may do nothing any more, why.
 */
export type Rights = { scopes: Scope[]; role: Role; merchantId: string | null } | { lost: string };

/** What a grant asks for: scopes and a merchant (null: as wide as its grantor). */
export interface Grant {
  scopes: readonly Scope[];
  merchantId: string | null;
}

/** Rights a credential holds (not lost). */
export type HeldRights = Exclude<Rights, { lost: string }>;

/** What a membership with `role`, acting for `merchantId`, may do. */
export const roleRights = (role: Role, merchantId: string | null): HeldRights => ({
  scopes: [...scopesByRole[role]],
  role,
  merchantId,
});

/** A member's rights, from their membership row (none: they left the tenant). */
export function memberRights(
  userId: string,
  member: { role: Role; merchantId: string | null } | null | undefined,
): Rights {
  if (!member) return { lost: `user ${userId} is no longer a member of the tenant` };
  return roleRights(member.role, member.merchantId);
}

/**
 * What `grant` is worth under a grantor holding `grantor`: its scopes capped by the grantor's (`cappedBy`) and the
 * narrower merchant. A grant for one merchant under a grantor now acting for another is worth nothing.
 */
export function narrowed(grant: Grant, grantor: Rights): Rights {
  if ("lost" in grantor) return grantor;
  if (grant.merchantId && grantor.merchantId && grant.merchantId !== grantor.merchantId) {
    return {
      lost: `it acts for merchant ${grant.merchantId}, and its grantor now acts for merchant ${grantor.merchantId} only`,
    };
  }
  return {
    scopes: cappedBy(grant.scopes, grantor.scopes),
    role: grantor.role,
    merchantId: grant.merchantId ?? grantor.merchantId,
  };
}

/** Whether `held` covers all of `grant`: every scope, and every merchant the grant reaches. */
export function covers(held: Rights, grant: Grant): boolean {
  if ("lost" in held) return false;
  return (
    grantsAll(held.scopes, grant.scopes) && (held.merchantId === null || held.merchantId === grant.merchantId)
  );
}

/** A key as its rights need it: its own grant and state, and the state of the keys above it. */
export interface KeyChain {
  id: string;
  scopes: string[];
  merchantId: string | null;
  revokedAt: string | null;
  expiresAt: string | null;
  /** The earliest revocation and expiry among the keys that made it (null: none). */
  grantorRevokedAt: string | null;
  grantorExpiresAt: string | null;
  creatorId: string | null;
  creatorRole: string | null;
  creatorMerchantId: string | null;
  grantorKeys?: string[] | null;
}

/** Why a key's own state stops it: revoked, or expired at `now`. */
export function keyStopped(key: Pick<KeyChain, "revokedAt" | "expiresAt">, now: Date) {
  if (key.revokedAt) return "revoked" as const;
  if (key.expiresAt && Date.parse(key.expiresAt) <= now.getTime()) return "expired" as const;
  return undefined;
}

/** A key's rights now: its own grant under every key above it and under the member accountable for it. */
export function keyRights(key: KeyChain, now: Date): Rights {
  const name = `API key ${key.id}`;
  const stopped = keyStopped(key, now);
  if (stopped) return { lost: `${name} ${stopped === "revoked" ? "was revoked" : "expired"}` };
  const above = keyStopped({ revokedAt: key.grantorRevokedAt, expiresAt: key.grantorExpiresAt }, now);
  if (above) return { lost: `the key that made ${name} ${above === "revoked" ? "was revoked" : "expired"}` };
  if (!key.creatorId || !key.creatorRole) return { lost: `the member who created ${name} left the tenant` };
  const creator = memberRights(key.creatorId, {
    role: key.creatorRole as Role,
    merchantId: key.creatorMerchantId,
  });
  const rights = narrowed({ scopes: key.scopes as Scope[], merchantId: key.merchantId }, creator);
  return "lost" in rights ? { lost: `${name}: ${rights.lost}` } : rights;
}

/** The earliest of a column over the keys above `apiKeys` (its `grantor_keys`), in the same statement. */
const overGrantors = (column: "revoked_at" | "expires_at") =>
  sql<
    string | null
  >`(select min(g.${sql.raw(column)}) from api_keys g where g.id in (select value from json_each(${apiKeys.grantorKeys})))`;

/**
 * A key with everything its rights depend on, in one statement: the key, the keys above it and the membership of
 * the member accountable for it. The request's key lookup (by hash) and `currentRights` (by id) both read it.
 */
export const keyChainColumns = {
  id: apiKeys.id,
  scopes: apiKeys.scopes,
  merchantId: apiKeys.merchantId,
  revokedAt: apiKeys.revokedAt,
  expiresAt: apiKeys.expiresAt,
  grantorRevokedAt: overGrantors("revoked_at").as("grantor_revoked_at"),
  grantorExpiresAt: overGrantors("expires_at").as("grantor_expires_at"),
  grantorKeys: apiKeys.grantorKeys,
  creatorId: memberships.userId,
  creatorRole: memberships.role,
  creatorMerchantId: sql<string | null>`${memberships.merchantId}`.as("creator_merchant_id"),
};

/** The join that brings `keyChainColumns` the membership of the key's accountable member in the key's tenant. */
export const creatorMembership = and(
  eq(memberships.tenantId, apiKeys.tenantId),
  eq(memberships.userId, apiKeys.createdBy),
);
