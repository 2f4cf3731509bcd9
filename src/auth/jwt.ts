import { jwtVerify, SignJWT } from "jose";
import { AppError } from "../http/errors";

export const JWT_ISSUER = "warehouse-api";
export const JWT_AUDIENCE = "warehouse-api/v1";
export const ACCESS_TOKEN_TTL_SECONDS = 60 * 60;

const keyCache = new Map<string, Uint8Array>();
function keyFor(secret: string): Uint8Array {
  let key = keyCache.get(secret);
  if (!key) {
    key = new TextEncoder().encode(secret);
    keyCache.set(secret, key);
  }
  return key;
}

/**
 * An access token for `userId`. `sessionId` (the `sid` claim) names the login it belongs to (its
 * refresh-token family), so a password change can keep this session and end the others.
 */
export async function signAccessToken(secret: string, userId: string, sessionId?: string, now = new Date()) {
  const issuedAt = Math.floor(now.getTime() / 1000);
  const expiresAt = issuedAt + ACCESS_TOKEN_TTL_SECONDS;
  const tokenId = crypto.randomUUID();
  const token = await new SignJWT(sessionId ? { sid: sessionId } : {})
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setIssuer(JWT_ISSUER)
    .setAudience(JWT_AUDIENCE)
    .setSubject(userId)
    .setJti(tokenId)
    .setIssuedAt(issuedAt)
    .setExpirationTime(expiresAt)
    .sign(keyFor(secret));
  return { token, tokenId, expiresAt: new Date(expiresAt * 1000).toISOString() };
}

/** Verifies signature (HS256 only: `alg: none` and others are refused), issuer, audience and expiry. */
export async function verifyAccessToken(secret: string, token: string) {
  try {
    const { payload } = await jwtVerify(token, keyFor(secret), {
      algorithms: ["HS256"],
      issuer: JWT_ISSUER,
      audience: JWT_AUDIENCE,
      requiredClaims: ["sub", "jti", "exp", "iat"],
    });
    const sessionId = typeof payload.sid === "string" ? payload.sid : undefined;
    return { userId: payload.sub as string, tokenId: payload.jti as string, sessionId };
  } catch {
    throw new AppError("UNAUTHORIZED", "Invalid or expired access token", {
      headers: { "WWW-Authenticate": 'Bearer error="invalid_token"' },
    });
  }
}
