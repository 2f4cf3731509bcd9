import { burnPasswordCheck, verifyPassword } from "../auth/passwords";
import type { PlatformDb } from "../db/client";
import { findUserByEmail } from "../identity/accounts";
import { badCredentials, signIn } from "../identity/session";

export async function login(db: PlatformDb, secret: string, input: { email: string; password: string }) {
  const user = await findUserByEmail(db, input.email);
  // Without a user, a dummy hash is still verified, so both failures take the same time.
  const valid = user
    ? await verifyPassword(input.password, {
        hash: user.passwordHash,
        salt: user.passwordSalt,
        iterations: user.passwordIterations,
      })
    : await burnPasswordCheck(input.password);
  if (!user || !valid) throw badCredentials();
  return signIn(db, secret, user.id);
}
