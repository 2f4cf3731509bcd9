import { eq } from "drizzle-orm";
import { uuidv7 } from "uuidv7";
import { hashPassword } from "../auth/passwords";
import type { PlatformDb } from "../db/client";
import { users } from "../db/schema/platform";

export type UserRow = typeof users.$inferSelect;

export async function findUserByEmail(db: PlatformDb, email: string): Promise<UserRow | undefined> {
  const [user] = await db.select().from(users).where(eq(users.email, email.toLowerCase())).limit(1);
  return user;
}

/**
 * A new account's row, ready to insert (not yet written). Only the person who controls the email sets
 * its password: someone accepting an invitation, or the platform operator creating a tenant's owner.
 */
export async function newUser(
  input: { email: string; password: string; name: string },
  now: string,
): Promise<UserRow> {
  const password = await hashPassword(input.password);
  return {
    id: uuidv7(),
    email: input.email.toLowerCase(),
    name: input.name,
    passwordHash: password.hash,
    passwordSalt: password.salt,
    passwordIterations: password.iterations,
    createdAt: now,
    updatedAt: now,
  };
}
