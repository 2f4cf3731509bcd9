import type { PlatformDb } from "../db/client";
import { rotateRefreshToken } from "../identity/refresh-tokens";
import { session } from "../identity/session";

export async function refreshSession(db: PlatformDb, secret: string, refreshToken: string) {
  const rotated = await rotateRefreshToken(db, refreshToken);
  return session(db, secret, rotated.userId, rotated);
}
