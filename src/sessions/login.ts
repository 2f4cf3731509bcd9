import { burnPasswordCheck, verifyPassword } from "../auth/passwords";
import { type AuditActor, auditRowsForMember } from "../db/audit/writer";
import { runBatch } from "../db/batch";
import type { PlatformDb } from "../db/client";
import { findUserByEmail } from "../identity/accounts";
import { badCredentials, signIn } from "../identity/session";

/**
 * Signs a person in. Both outcomes for a known person are audited in each tenant they are a member of: a success in
 * the batch that issues the session, a failure on its own; an unknown email has no tenant to record it in.
 */
export async function login(
  db: PlatformDb,
  secret: string,
  input: { email: string; password: string },
  by: AuditActor,
) {
  const user = await findUserByEmail(db, input.email);
  // Without a user, a dummy hash is still verified, so both failures take the same time.
  const valid = user
    ? await verifyPassword(input.password, {
        hash: user.passwordHash,
        salt: user.passwordSalt,
        iterations: user.passwordIterations,
      })
    : await burnPasswordCheck(input.password);
  const target = { type: "user", id: user?.id ?? null };
  if (user && !valid) {
    await runBatch(db, {
      audit: auditRowsForMember(db, user.id, by, { action: "session.sign_in_failed", target }),
    });
  }
  if (!user || !valid) throw badCredentials();
  const asUser: AuditActor = { ...by, type: "user", id: user.id, chain: [{ type: "user", id: user.id }] };
  return signIn(
    db,
    secret,
    user.id,
    auditRowsForMember(db, user.id, asUser, { action: "session.signed_in", target }),
  );
}
