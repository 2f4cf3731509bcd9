import type { PlatformDb } from "../db/client";
import { rotateRefreshToken } from "./refresh-tokens";
import { session } from "./session";

export async function refreshSession(db: PlatformDb, secret: string, refreshToken: string) {
  const rotated = await rotateRefreshToken(db, refreshToken);
  return session(db, secret, rotated.userId, rotated);
}
