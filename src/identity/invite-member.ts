import { and, eq, isNull } from "drizzle-orm";
import { uuidv7 } from "uuidv7";
import { currentRights, mayGrant } from "../auth/current-rights";
import type { Role } from "../auth/scopes";
import { oneTimeToken } from "../crypto/hashing";
import { type AuditActor, auditRow } from "../db/audit/writer";
import { runBatch } from "../db/batch";
import type { PlatformScope } from "../db/client";
import { invitations, memberships, users } from "../db/schema/platform";
import { AppError, conflict } from "../http/errors";
import { INVITATION_TTL_MS, type InvitationRow, invitationRecord } from "./invitation-records";

export type InvitedBy = Pick<InvitationRow, "invitedByType" | "invitedById">;

/** A new invitation row and the token that goes only into its mail. */
export async function newInvitation(
  tenantId: string,
  input: { email: string; role: Role; merchantId?: string | null },
  invitedBy: InvitedBy,
  now: Date,
): Promise<{ row: InvitationRow; token: string }> {
  const { token, tokenHash } = await oneTimeToken("wms_inv_");
  const row: InvitationRow = {
    id: uuidv7(),
    tenantId,
    email: input.email.toLowerCase(),
    role: input.role,
    merchantId: input.merchantId ?? null,
    tokenHash,
    ...invitedBy,
    expiresAt: new Date(now.getTime() + INVITATION_TTL_MS).toISOString(),
    acceptedAt: null,
    acceptedBy: null,
    revokedAt: null,
    createdAt: now.toISOString(),
  };
  return { row, token };
}

/**
 * `POST /users`: invites an email into the tenant. The answer is the same whether or not the email has
 * an account (only the mail's wording differs), so an admin learns nothing about other tenants' people.
 * Inviting an email again replaces its open invitation: the older link stops working. Only an owner invites an
 * owner (403). With `merchantId` the person acts for that merchant only from the moment they join.
 */
export async function inviteMember(
  scope: PlatformScope,
  input: { email: string; role: Role; merchantId?: string | null },
  invitedBy: InvitedBy,
  by: AuditActor,
  now = new Date(),
) {
  const email = input.email.toLowerCase();
  if (invitedBy.invitedById && invitedBy.invitedByType !== "platform") {
    const sender = { type: invitedBy.invitedByType, id: invitedBy.invitedById };
    if (!mayGrant(await currentRights(scope.db, scope.tenantId, sender, now), input.role)) {
      throw new AppError(
        "FORBIDDEN",
        input.role === "owner"
          ? "Only an owner can grant, change or remove the owner role"
          : "Inviting people needs the admin scope",
      );
    }
  }
  const [known] = await scope.db
    .select({ memberRole: memberships.role })
    .from(users)
    .leftJoin(memberships, and(eq(memberships.userId, users.id), eq(memberships.tenantId, scope.tenantId)))
    .where(eq(users.email, email))
    .limit(1);
  if (known?.memberRole) throw conflict("This email is already a member of the tenant");
  const { row, token } = await newInvitation(scope.tenantId, { ...input, email }, invitedBy, now);
  await runBatch(scope, {
    replaced: scope.db
      .update(invitations)
      .set({ revokedAt: now.toISOString() })
      .where(
        and(
          eq(invitations.tenantId, scope.tenantId),
          eq(invitations.email, email),
          isNull(invitations.acceptedAt),
          isNull(invitations.revokedAt),
        ),
      ),
    invited: scope.db.insert(invitations).values(row),
    audit: auditRow(scope, by, {
      action: "member.invited",
      target: { type: "invitation", id: row.id },
      merchantId: row.merchantId,
      after: invitationRecord(row, now),
    }),
  });
  return { invitation: invitationRecord(row, now), token, accountExists: known !== undefined };
}
