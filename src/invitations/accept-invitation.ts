import { and, eq, gt, isNull, sql } from "drizzle-orm";
import { type AuditActor, auditRow } from "../db/audit/writer";
import { changesOf, runBatch } from "../db/batch";
import type { PlatformDb } from "../db/client";
import { answerFor } from "../db/constraint-errors";
import { invitations } from "../db/schema/platform";
import { AppError, conflict } from "../http/errors";
import { newUser } from "../identity/accounts";
import { signIn } from "../identity/session";
import { previousStatementChanged } from "../outbox/outbox";
import { invalid, type OpenInvitation, openInvitation } from "./open-invitation";
import type { AcceptInvitationBody } from "./schemas";

// Marks the invitation accepted only while it is still open, so of two concurrent accepts one wins.
const markAccepted = (db: PlatformDb, invitation: OpenInvitation, userId: string, now: Date) =>
  db
    .update(invitations)
    .set({ acceptedAt: now.toISOString(), acceptedBy: userId })
    .where(
      and(
        eq(invitations.id, invitation.id),
        isNull(invitations.acceptedAt),
        isNull(invitations.revokedAt),
        gt(invitations.expiresAt, now.toISOString()),
      ),
    );

// Joins the tenant only if the statement before it changed a row (the invitation was still open).
const joinIfAccepted = (invitation: OpenInvitation, userId: string, now: Date) =>
  sql`insert into memberships (tenant_id, user_id, role, merchant_id, created_at, updated_at)
      select ${invitation.tenantId}, ${userId}, ${invitation.role}, ${invitation.merchantId}, ${now.toISOString()}, ${now.toISOString()}
      where changes() = 1
      on conflict do nothing`;

/** The audit entry of a person joining, right after the guarded insert of their membership. */
const joinedEntry = (db: PlatformDb, invitation: OpenInvitation, userId: string, by: AuditActor) =>
  auditRow(
    { db, tenantId: invitation.tenantId },
    { ...by, type: "user", id: userId, chain: [{ type: "user", id: userId }] },
    {
      action: "member.joined",
      target: { type: "member", id: userId },
      merchantId: invitation.merchantId,
      after: { role: invitation.role, merchantId: invitation.merchantId, invitationId: invitation.id },
    },
    { onlyIf: previousStatementChanged },
  );

/**
 * `POST /auth/invitations/accept`. A new person sets their own password and name and is signed in. An
 * existing account is never given a password or a name: its owner signs in first and accepts with the
 * token only, and must be signed in as the invited email.
 */
export async function acceptInvitation(
  db: PlatformDb,
  secret: string,
  input: AcceptInvitationBody & { signedInUserId: string | undefined },
  by: AuditActor,
  now = new Date(),
) {
  const invitation = await openInvitation(db, input.token, now);
  if (invitation.accountId !== null) {
    return joinExistingAccount(db, invitation, invitation.accountId, input, by, now);
  }
  return createAccount(db, secret, invitation, input, by, now);
}

async function joinExistingAccount(
  db: PlatformDb,
  invitation: OpenInvitation,
  accountId: string,
  input: AcceptInvitationBody & { signedInUserId: string | undefined },
  by: AuditActor,
  now: Date,
) {
  if (!input.signedInUserId) {
    throw new AppError(
      "UNAUTHORIZED",
      "This email already has an account: sign in and accept with your access token and the invitation token",
      { headers: { "WWW-Authenticate": 'Bearer realm="warehouse-api"' } },
    );
  }
  if (input.signedInUserId !== accountId) {
    throw new AppError("FORBIDDEN", "This invitation was sent to another email address");
  }
  const refused = [
    input.password !== undefined && "password: not accepted: the account already has one",
    input.name !== undefined && "name: not accepted: the account already has one",
  ].filter((message) => message !== false);
  if (refused.length > 0) throw new AppError("VALIDATION_FAILED", "Validation failed", { errors: refused });

  const written = await runBatch(db, {
    accepted: markAccepted(db, invitation, accountId, now),
    joined: joinIfAccepted(invitation, accountId, now),
    audit: joinedEntry(db, invitation, accountId, by),
  });
  if (changesOf(written.accepted) === 0) throw invalid();
  if (changesOf(written.joined) === 0) throw conflict("You are already a member of this tenant");
  return { tenantId: invitation.tenantId, role: invitation.role, merchantId: invitation.merchantId };
}

async function createAccount(
  db: PlatformDb,
  secret: string,
  invitation: OpenInvitation,
  input: AcceptInvitationBody,
  by: AuditActor,
  now: Date,
) {
  const { password, name } = input;
  if (password === undefined || name === undefined) {
    const missing = [
      name === undefined && "name: is required for a new account",
      password === undefined && "password: is required for a new account",
    ].filter((message) => message !== false);
    throw new AppError("VALIDATION_FAILED", "Validation failed", { errors: missing });
  }
  const user = await newUser({ email: invitation.email, password, name }, now.toISOString());
  let created: D1Result;
  try {
    // The account exists only if the invitation was still open (the insert is guarded by it), and the
    // invitation is marked accepted only after the account, which its accepted_by column references.
    const written = await runBatch(db, {
      user: sql`insert into users (id, email, name, password_hash, password_salt, password_iterations, created_at, updated_at)
          select ${user.id}, ${user.email}, ${user.name}, ${user.passwordHash}, ${user.passwordSalt},
                 ${user.passwordIterations}, ${user.createdAt}, ${user.updatedAt}
          where exists (select 1 from invitations where id = ${invitation.id} and accepted_at is null
                        and revoked_at is null and expires_at > ${now.toISOString()})`,
      accepted: markAccepted(db, invitation, user.id, now),
      joined: joinIfAccepted(invitation, user.id, now),
      audit: joinedEntry(db, invitation, user.id, by),
    });
    created = written.user;
  } catch (error) {
    throw answerFor(error, {
      users_email_unique: () =>
        conflict("An account for this email was just created: sign in and accept the invitation again"),
    });
  }
  if (changesOf(created) === 0) throw invalid();
  return signIn(db, secret, user.id);
}
