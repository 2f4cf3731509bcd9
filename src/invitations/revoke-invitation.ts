import { and, eq, isNull } from "drizzle-orm";
import type { PlatformScope } from "../db/client";
import { invitations } from "../db/schema/platform";
import { conflict, notFound } from "../http/errors";
import { invitationRecord } from "../identity/invitation-records";

/** `DELETE /users/invitations/{id}`: revokes an invitation that was not accepted (its link stops working); revoking it again changes nothing. */
export async function revokeInvitation(scope: PlatformScope, id: string, now = new Date()) {
  const ofInvitation = and(eq(invitations.tenantId, scope.tenantId), eq(invitations.id, id));
  const [revoked] = await scope.db
    .update(invitations)
    .set({ revokedAt: now.toISOString() })
    .where(and(ofInvitation, isNull(invitations.acceptedAt), isNull(invitations.revokedAt)))
    .returning();
  if (revoked) return invitationRecord(revoked, now);
  const [row] = await scope.db.select().from(invitations).where(ofInvitation).limit(1);
  if (!row) throw notFound("Invitation");
  if (row.acceptedAt) throw conflict("This invitation was already accepted; remove the member instead");
  return invitationRecord(row, now);
}
