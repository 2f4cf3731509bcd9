import { and, eq, isNull } from "drizzle-orm";
import { type AuditActor, auditRow } from "../db/audit/writer";
import { runBatch } from "../db/batch";
import type { PlatformScope } from "../db/client";
import { invitations } from "../db/schema/platform";
import { conflict, notFound } from "../http/errors";
import { invitationRecord } from "../identity/invitation-records";
import { previousStatementChanged } from "../outbox/outbox";

/** `DELETE /users/invitations/{id}`: revokes an invitation that was not accepted (its link stops working); revoking it again changes nothing. */
export async function revokeInvitation(scope: PlatformScope, id: string, by: AuditActor, now = new Date()) {
  const ofInvitation = and(eq(invitations.tenantId, scope.tenantId), eq(invitations.id, id));
  const {
    revoked: [revoked],
  } = await runBatch(scope, {
    revoked: scope.db
      .update(invitations)
      .set({ revokedAt: now.toISOString() })
      .where(and(ofInvitation, isNull(invitations.acceptedAt), isNull(invitations.revokedAt)))
      .returning(),
    audit: auditRow(
      scope,
      by,
      {
        action: "invitation.revoked",
        target: { type: "invitation", id },
        after: { revokedAt: now.toISOString() },
      },
      { onlyIf: previousStatementChanged },
    ),
  });
  if (revoked) return invitationRecord(revoked, now);
  const [row] = await scope.db.select().from(invitations).where(ofInvitation).limit(1);
  if (!row) throw notFound("Invitation");
  if (row.acceptedAt) throw conflict("This invitation was already accepted; remove the member instead");
  return invitationRecord(row, now);
}
