import { eq, type SQL } from "drizzle-orm";
import { signAccessToken } from "../auth/jwt";
import type { PlatformDb } from "../db/client";
import { memberships, tenants, users } from "../db/schema/platform";
import { AppError } from "../http/errors";
import { issueRefreshToken } from "./refresh-tokens";

// One message for an unknown email and a wrong password, so a login cannot tell which emails exist.
export const badCredentials = () =>
  new AppError("UNAUTHORIZED", "Invalid email or password", {
    headers: { "WWW-Authenticate": 'Bearer realm="warehouse-api"' },
  });

/** The signed-in user and their memberships, as a session and `GET /auth/me` show them. */
export async function sessionUser(db: PlatformDb, userId: string) {
  const [user] = await db
    .select({ id: users.id, email: users.email, name: users.name })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  if (!user) throw badCredentials();
  const rows = await db
    .select({
      tenantId: memberships.tenantId,
      tenantName: tenants.name,
      role: memberships.role,
      merchantId: memberships.merchantId,
    })
    .from(memberships)
    .innerJoin(tenants, eq(tenants.id, memberships.tenantId))
    .where(eq(memberships.userId, userId))
    .orderBy(tenants.name);
  return { ...user, memberships: rows };
}

/** A session's answer: an access token for the refresh token's family, and the user. */
export async function session(
  db: PlatformDb,
  secret: string,
  userId: string,
  refresh: { token: string; familyId: string },
) {
  const [access, user] = await Promise.all([
    signAccessToken(secret, userId, refresh.familyId),
    sessionUser(db, userId),
  ]);
  return { token: access.token, refreshToken: refresh.token, expiresAt: access.expiresAt, user };
}

/** A new session (one refresh-token family) for a user whose identity is already proven. */
export async function signIn(db: PlatformDb, secret: string, userId: string, alongside?: SQL) {
  return session(db, secret, userId, await issueRefreshToken(db, userId, new Date(), alongside));
}
