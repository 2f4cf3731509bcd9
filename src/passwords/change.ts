import { and, countDistinct, eq, isNull, ne } from "drizzle-orm";
import { hashPassword, verifyPassword } from "../auth/passwords";
import { runBatch } from "../db/batch";
import type { PlatformDb } from "../db/client";
import { passwordResetTokens, refreshTokens, users } from "../db/schema/platform";
import { AppError } from "../http/errors";
import { WRONG_PASSWORD } from "../rate-limit/login-throttle";

/**
 * `POST /auth/password`: with the current password, sets a new one and ends the user's other logins
 * (refresh-token families other than the caller's own, named by the access token's `sid`) and any
 * outstanding reset links. Access tokens already issued elsewhere expire within the hour.
 */
export async function changePassword(
  db: PlatformDb,
  user: { id: string; sessionId: string | undefined },
  input: { currentPassword: string; newPassword: string },
  now = new Date(),
) {
  const [stored] = await db.select().from(users).where(eq(users.id, user.id)).limit(1);
  if (!stored) throw new AppError("UNAUTHORIZED", "Unknown user");
  const current = {
    hash: stored.passwordHash,
    salt: stored.passwordSalt,
    iterations: stored.passwordIterations,
  };
  if (!(await verifyPassword(input.currentPassword, current))) {
    throw new AppError("VALIDATION_FAILED", WRONG_PASSWORD, {
      errors: ["currentPassword: is incorrect"],
    });
  }
  if (input.newPassword === input.currentPassword) {
    throw new AppError("VALIDATION_FAILED", "Validation failed", {
      errors: ["newPassword: must differ from the current password"],
    });
  }
  const password = await hashPassword(input.newPassword);
  const at = now.toISOString();
  const otherLogins = and(
    eq(refreshTokens.userId, user.id),
    isNull(refreshTokens.revokedAt),
    user.sessionId ? ne(refreshTokens.familyId, user.sessionId) : undefined,
  );
  const { ended } = await runBatch(db, {
    ended: db
      .select({ value: countDistinct(refreshTokens.familyId) })
      .from(refreshTokens)
      .where(otherLogins),
    password: db
      .update(users)
      .set({
        passwordHash: password.hash,
        passwordSalt: password.salt,
        passwordIterations: password.iterations,
        updatedAt: at,
      })
      .where(eq(users.id, user.id)),
    sessions: db.update(refreshTokens).set({ revokedAt: at }).where(otherLogins),
    resetLinks: db
      .update(passwordResetTokens)
      .set({ usedAt: at })
      .where(and(eq(passwordResetTokens.userId, user.id), isNull(passwordResetTokens.usedAt))),
  });
  return { changedAt: at, otherSessionsRevoked: ended[0]?.value ?? 0 };
}
