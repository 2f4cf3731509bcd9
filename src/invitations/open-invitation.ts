import { and, eq, gt, isNull } from "drizzle-orm";
import { currentRights, type Grantor, mayGrant } from "../auth/current-rights";
import type { Role } from "../auth/scopes";
import { sha256Hex } from "../crypto/hashing";
import type { PlatformDb } from "../db/client";
import { invitations, tenants, users } from "../db/schema/platform";
import { AppError } from "../http/errors";

export const invalid = () =>
  new AppError("NOT_FOUND", "This invitation is unknown, used, revoked or expired");

/** The open invitation a token names, with its tenant's name and the id of the email's account if any. */
export async function openInvitation(db: PlatformDb, token: string, now: Date) {
  const [found] = await db
    .select({
      id: invitations.id,
      tenantId: invitations.tenantId,
      email: invitations.email,
      role: invitations.role,
      merchantId: invitations.merchantId,
      invitedByType: invitations.invitedByType,
      invitedById: invitations.invitedById,
      expiresAt: invitations.expiresAt,
      tenantName: tenants.name,
      accountId: users.id,
    })
    .from(invitations)
    .innerJoin(tenants, eq(tenants.id, invitations.tenantId))
    .leftJoin(users, eq(users.email, invitations.email))
    .where(
      and(
        eq(invitations.tokenHash, await sha256Hex(token)),
        isNull(invitations.acceptedAt),
        isNull(invitations.revokedAt),
        gt(invitations.expiresAt, now.toISOString()),
      ),
    )
    .limit(1);
  if (!found) throw invalid();
  await assertSenderMayGrant(db, found, now);
  return found;
}

/**
 * An invitation works only while whoever sent it (a member, or a key with its creator's rights) may still grant
 * its role; otherwise it is revoked now and refused like any revoked one (removal, demotion and key revocation
 * revoke such invitations themselves; this catches what they cannot: an expired key).
 */
async function assertSenderMayGrant(
  db: PlatformDb,
  invitation: { id: string; tenantId: string; role: Role; invitedByType: string; invitedById: string | null },
  now: Date,
) {
  const { invitedByType: type, invitedById: id } = invitation;
  if (type === "platform" || !id) return;
  const rights = await currentRights(db, invitation.tenantId, { type: type as Grantor["type"], id }, now);
  if (mayGrant(rights, invitation.role)) return;
  await db
    .update(invitations)
    .set({ revokedAt: now.toISOString() })
    .where(
      and(eq(invitations.id, invitation.id), isNull(invitations.acceptedAt), isNull(invitations.revokedAt)),
    );
  throw new AppError(
    "NOT_FOUND",
    `This invitation was revoked: whoever sent it can no longer grant the ${invitation.role} role`,
  );
}

export type OpenInvitation = Awaited<ReturnType<typeof openInvitation>>;
