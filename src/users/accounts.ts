import { eq } from "drizzle-orm";
import { uuidv7 } from "uuidv7";
import { hashPassword } from "../auth/passwords";
import type { Database } from "../db/client";
import { users } from "../db/schema";

export type UserRow = typeof users.$inferSelect;

export async function findUserByEmail(db: Database, email: string): Promise<UserRow | undefined> {
  const [user] = await db.select().from(users).where(eq(users.email, email.toLowerCase())).limit(1);
  return user;
}

/** The existing user with this email, or a new user row ready to insert (not yet written). */
export async function userForMembership(
  db: Database,
  input: { email: string; password: string; name: string },
  now: string,
): Promise<{ user: UserRow; isNew: boolean }> {
  const existing = await findUserByEmail(db, input.email);
  if (existing) return { user: existing, isNew: false };
  const password = await hashPassword(input.password);
  return {
    isNew: true,
    user: {
      id: uuidv7(),
      email: input.email.toLowerCase(),
      name: input.name,
      passwordHash: password.hash,
      passwordSalt: password.salt,
      passwordIterations: password.iterations,
      createdAt: now,
      updatedAt: now,
    },
  };
}
