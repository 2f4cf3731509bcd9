import type { PlatformDb } from "../db/client";
import { openInvitation } from "./open-invitation";

/** `POST /auth/invitations/inspect`: what the accept page shows; only the token's holder can ask. */
export async function inspectInvitation(db: PlatformDb, token: string, now = new Date()) {
  const found = await openInvitation(db, token, now);
  return {
    email: found.email,
    tenantName: found.tenantName,
    role: found.role,
    merchantId: found.merchantId,
    expiresAt: found.expiresAt,
    accountExists: found.accountId !== null,
  };
}
