import { and, eq, gt, lte } from "drizzle-orm";
import { sha256Hex } from "../crypto/hashing";
import type { PlatformDb } from "../db/client";
import { platformDb } from "../db/client";
import { signInClients, users } from "../db/schema/platform";
import type { AppContext, Bindings } from "../env";
import { log } from "../observability/log";
import { signInClient } from "../rate-limit/login-throttle";

/** A client stays "usual" for an email for 90 days after a successful sign-in from it. */
const KNOWN_FOR_MS = 90 * 24 * 60 * 60_000;

/**
 * Whether the account of `email` signed in from `client` (see signInClient) in the last 90 days: such a
 * client is not held to the per-email ceiling of failed logins, so an attacker filling that ceiling from
 * elsewhere cannot lock the person out of their usual address.
 */
export async function isKnownClient(db: PlatformDb, email: string, client: string, now = new Date()) {
  const [row] = await db
    .select({ userId: signInClients.userId })
    .from(signInClients)
    .innerJoin(users, eq(users.id, signInClients.userId))
    .where(
      and(
        eq(users.email, email.trim().toLowerCase()),
        eq(signInClients.clientHash, await sha256Hex(client)),
        gt(signInClients.lastSignInAt, new Date(now.getTime() - KNOWN_FOR_MS).toISOString()),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/** Records a sign-in proven by the password or the mailbox (login, reset, accepting an invitation). */
export async function rememberClient(db: PlatformDb, userId: string, client: string, now = new Date()) {
  const row = { userId, clientHash: await sha256Hex(client), lastSignInAt: now.toISOString() };
  await db
    .insert(signInClients)
    .values(row)
    .onConflictDoUpdate({
      target: [signInClients.userId, signInClients.clientHash],
      set: { lastSignInAt: row.lastSignInAt },
    });
}

/** Forgets clients not signed in from for 90 days (run by the cron trigger). */
export async function sweepSignInClients(env: Bindings, now = new Date()) {
  const cutoff = new Date(now.getTime() - KNOWN_FOR_MS).toISOString();
  const result = await platformDb(env).delete(signInClients).where(lte(signInClients.lastSignInAt, cutoff));
  return result.meta.changes;
}

/** After a proven sign-in, remembers the request's client for its user, off the request's path. */
export function rememberClientAfterResponse(c: AppContext, userId: string): void {
  c.executionCtx.waitUntil(
    rememberClient(platformDb(c.env), userId, signInClient(c)).catch((error: unknown) => {
      log("error", "sign-in client not remembered", { requestId: c.var.requestId, error: String(error) });
    }),
  );
}
