import { and, gt, isNotNull, isNull, lte, type SQL } from "drizzle-orm";
import { invitations } from "../db/schema/platform";
import type { InvitationStatus } from "./invitation-schemas";

export type InvitationRow = typeof invitations.$inferSelect;

/** Invitations last a week: long enough for someone on holiday, short enough that a stale mail is worthless. */
export const INVITATION_TTL_MS = 7 * 24 * 60 * 60_000;

export function statusOf(row: InvitationRow, now: Date): InvitationStatus {
  if (row.acceptedAt) return "accepted";
  if (row.revokedAt) return "revoked";
  return Date.parse(row.expiresAt) <= now.getTime() ? "expired" : "pending";
}

/** The same four states as `statusOf`, as a filter. */
export function hasStatus(status: InvitationStatus, now: Date): SQL | undefined {
  const at = now.toISOString();
  const open = and(isNull(invitations.acceptedAt), isNull(invitations.revokedAt));
  switch (status) {
    case "accepted":
      return isNotNull(invitations.acceptedAt);
    case "revoked":
      return and(isNull(invitations.acceptedAt), isNotNull(invitations.revokedAt));
    case "expired":
      return and(open, lte(invitations.expiresAt, at));
    case "pending":
      return and(open, gt(invitations.expiresAt, at));
  }
}

/** What the API shows: never the token's hash. */
export function invitationRecord(row: InvitationRow, now = new Date()) {
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    status: statusOf(row, now),
    expiresAt: row.expiresAt,
    createdAt: row.createdAt,
    acceptedAt: row.acceptedAt,
    revokedAt: row.revokedAt,
    merchantId: row.merchantId,
    invitedBy: { type: row.invitedByType, id: row.invitedById },
  };
}
