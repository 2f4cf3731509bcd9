import { and, eq, gt, isNull, sql } from "drizzle-orm";
import { uuidv7 } from "uuidv7";
import { hashPassword } from "../auth/passwords";
import { oneTimeToken, sha256Hex } from "../crypto/hashing";
import { changesOf, runBatch } from "../db/batch";
import type { PlatformDb } from "../db/client";
import { passwordResetTokens, users } from "../db/schema/platform";
import { AppError } from "../http/errors";
import { findUserByEmail } from "../identity/accounts";

/** A reset link works for an hour: long enough to reach the mailbox, short for a link in an old mail. */
export const RESET_TTL_MS = 60 * 60_000;

/**
 * Stores a reset token for the account of `email`, if there is one, and returns it for the mail (the
 * only place it goes). Runs after the response, so the answer is the same, and as fast, either way.
 */
export async function issueResetToken(db: PlatformDb, email: string, now = new Date()) {
  const user = await findUserByEmail(db, email);
  if (!user) return undefined;
  const { token, tokenHash } = await oneTimeToken("wms_pwr_");
  await db.insert(passwordResetTokens).values({
    id: uuidv7(),
    userId: user.id,
    tokenHash,
    expiresAt: new Date(now.getTime() + RESET_TTL_MS).toISOString(),
    usedAt: null,
    createdAt: now.toISOString(),
  });
  return { email: user.email, token };
}

const invalid = () => new AppError("NOT_FOUND", "This reset link is unknown, used or expired");

/**
 * `POST /auth/password-reset/confirm`: sets the password and ends every login of the account and every
 * other reset link. One batch whose writes all require the token to be still unused, the last of them
 * using it, so of two concurrent confirms exactly one changes the password.
 */
export async function confirmPasswordReset(
  db: PlatformDb,
  input: { token: string; password: string },
  now = new Date(),
) {
  const at = now.toISOString();
  const [found] = await db
    .select({ id: passwordResetTokens.id, userId: users.id, email: users.email })
    .from(passwordResetTokens)
    .innerJoin(users, eq(users.id, passwordResetTokens.userId))
    .where(
      and(
        eq(passwordResetTokens.tokenHash, await sha256Hex(input.token)),
        isNull(passwordResetTokens.usedAt),
        gt(passwordResetTokens.expiresAt, at),
      ),
    )
    .limit(1);
  if (!found) throw invalid();
  const password = await hashPassword(input.password);
  const stillUnused = sql`exists (select 1 from password_reset_tokens where id = ${found.id}
    and used_at is null and expires_at > ${at})`;
  const written = await runBatch(db, {
    password: sql`update users set password_hash = ${password.hash}, password_salt = ${password.salt},
      password_iterations = ${password.iterations}, updated_at = ${at}
      where id = ${found.userId} and ${stillUnused}`,
    sessions: sql`update refresh_tokens set revoked_at = ${at}
      where user_id = ${found.userId} and revoked_at is null and ${stillUnused}`,
    links: sql`update password_reset_tokens set used_at = ${at}
      where user_id = ${found.userId} and used_at is null and ${stillUnused}`,
  });
  if (changesOf(written.password) === 0) throw invalid();
  return { userId: found.userId, email: found.email };
}
