import { and, eq, isNull, type SQL, sql } from "drizzle-orm";
import { uuidv7 } from "uuidv7";
import { randomToken, sha256Hex } from "../crypto/hashing";
import { changesOf, runBatch } from "../db/batch";
import type { PlatformDb } from "../db/client";
import { refreshTokens } from "../db/schema/platform";
import { AppError } from "../http/errors";

const REFRESH_TOKEN_TTL_MS = 30 * 24 * 60 * 60_000;
const PREFIX = "wms_rt_";

const invalid = () =>
  new AppError("UNAUTHORIZED", "Invalid or expired refresh token", {
    headers: { "WWW-Authenticate": 'Bearer error="invalid_token"' },
  });

async function newToken(userId: string, familyId: string, now: Date) {
  const token = `${PREFIX}${randomToken(48)}`;
  return {
    token,
    row: {
      id: uuidv7(),
      tokenHash: await sha256Hex(token),
      familyId,
      userId,
      expiresAt: new Date(now.getTime() + REFRESH_TOKEN_TTL_MS).toISOString(),
      createdAt: now.toISOString(),
    },
  };
}

/** A refresh token opening a new family (one login = one family). Only its hash is stored. */
export async function issueRefreshToken(db: PlatformDb, userId: string, now = new Date(), alongside?: SQL) {
  const { token, row } = await newToken(userId, uuidv7(), now);
  // `alongside`: what commits with the new token (a sign-in's audit entries).
  await runBatch(db, { token: db.insert(refreshTokens).values(row), alongside });
  return { token, familyId: row.familyId };
}

function revokeFamily(db: PlatformDb, familyId: string, now: Date) {
  return db
    .update(refreshTokens)
    .set({ revokedAt: now.toISOString() })
    .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)));
}

/**
 * Rotates a refresh token: the presented one is marked rotated and a successor in the same family is
 * issued. Presenting a token that was already rotated is reuse (RFC 9700): the family is revoked, so
 * a stolen token and its thief's successors all stop working.
 */
export async function rotateRefreshToken(db: PlatformDb, presented: string, now = new Date()) {
  const [stored] = await db
    .select()
    .from(refreshTokens)
    .where(eq(refreshTokens.tokenHash, await sha256Hex(presented)))
    .limit(1);
  if (!stored || stored.revokedAt || Date.parse(stored.expiresAt) <= now.getTime()) throw invalid();
  if (stored.rotatedAt) {
    await revokeFamily(db, stored.familyId, now);
    throw invalid();
  }
  const successor = await newToken(stored.userId, stored.familyId, now);
  // The rotation is guarded: of two concurrent refreshes with one token, only the first marks it
  // rotated; the successor is inserted only if that update changed a row, so the loser inserts
  // nothing and is treated as reuse.
  const written = await runBatch(db, {
    rotated: db
      .update(refreshTokens)
      .set({ rotatedAt: now.toISOString() })
      .where(
        and(
          eq(refreshTokens.id, stored.id),
          isNull(refreshTokens.rotatedAt),
          isNull(refreshTokens.revokedAt),
        ),
      ),
    successor: sql`insert into refresh_tokens (id, token_hash, family_id, user_id, expires_at, created_at)
      select ${successor.row.id}, ${successor.row.tokenHash}, ${successor.row.familyId}, ${successor.row.userId},
             ${successor.row.expiresAt}, ${successor.row.createdAt}
      where changes() = 1`,
  });
  if (changesOf(written.successor) !== 1) {
    await revokeFamily(db, stored.familyId, now);
    throw invalid();
  }
  return { userId: stored.userId, token: successor.token, familyId: stored.familyId };
}

/** Logout: revokes the token's whole family (that login's session). Unknown tokens are ignored. */
export async function revokeRefreshToken(
  db: PlatformDb,
  presented: string,
  now = new Date(),
): Promise<boolean> {
  const [stored] = await db
    .select({ familyId: refreshTokens.familyId })
    .from(refreshTokens)
    .where(eq(refreshTokens.tokenHash, await sha256Hex(presented)))
    .limit(1);
  if (!stored) return false;
  await revokeFamily(db, stored.familyId, now);
  return true;
}
