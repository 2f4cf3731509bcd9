import { eq } from "drizzle-orm";
import { signAccessToken } from "../auth/jwt";
import { burnPasswordCheck, verifyPassword } from "../auth/passwords";
import type { Principal } from "../auth/principal";
import type { PlatformDb } from "../db/client";
import { memberships, tenants, users } from "../db/schema/platform";
import { AppError } from "../http/errors";
import { findUserByEmail } from "../users/accounts";
import { issueRefreshToken, rotateRefreshToken } from "./refresh-tokens";

// One message for an unknown email and a wrong password, so a login cannot tell which emails exist.
const badCredentials = () =>
  new AppError("UNAUTHORIZED", "Invalid email or password", {
    headers: { "WWW-Authenticate": 'Bearer realm="warehouse-api"' },
  });

async function sessionUser(db: PlatformDb, userId: string) {
  const [user] = await db
    .select({ id: users.id, email: users.email, name: users.name })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  if (!user) throw badCredentials();
  const rows = await db
    .select({ tenantId: memberships.tenantId, tenantName: tenants.name, role: memberships.role })
    .from(memberships)
    .innerJoin(tenants, eq(tenants.id, memberships.tenantId))
    .where(eq(memberships.userId, userId))
    .orderBy(tenants.name);
  return { ...user, memberships: rows };
}

async function session(
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
export async function signIn(db: PlatformDb, secret: string, userId: string) {
  return session(db, secret, userId, await issueRefreshToken(db, userId));
}

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

export async function refresh(db: PlatformDb, secret: string, refreshToken: string) {
  const rotated = await rotateRefreshToken(db, refreshToken);
  return session(db, secret, rotated.userId, rotated);
}

/** `GET /auth/me`: the user and their memberships, or the key's tenant and scopes. */
export async function describePrincipal(db: PlatformDb, principal: Principal) {
  if (principal.type === "api_key") {
    return {
      type: "api_key" as const,
      apiKey: { id: principal.id, scopes: [...principal.scopes] },
      tenant: (({ id, name, plan, status }) => ({ id, name, plan, status }))(principal.tenant),
    };
  }
  return { type: "user" as const, user: await sessionUser(db, principal.id) };
}
