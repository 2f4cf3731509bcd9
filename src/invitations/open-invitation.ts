import { and, eq, gt, isNull } from "drizzle-orm";
import { sha256Hex } from "../auth/hashing";
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
  return found;
}

export type OpenInvitation = Awaited<ReturnType<typeof openInvitation>>;
