import { createMiddleware } from "hono/factory";
import { platformDb } from "../db/client";
import type { AppContext, AppEnv } from "../env";
import { AppError } from "../http/errors";
import { findApiKey, lastUsedIsStale, looksLikeApiKey, touchApiKey } from "./api-keys";
import { ipAllowed } from "./ip-allow-list";
import { verifyAccessToken } from "./jwt";
import type { Principal } from "./principal";

function unauthorized(message: string): AppError {
  return new AppError("UNAUTHORIZED", message, {
    headers: { "WWW-Authenticate": 'Bearer realm="warehouse-api"' },
  });
}

function credentialOf(headers: { apiKey?: string; authorization?: string }): string {
  if (headers.apiKey) return headers.apiKey.trim();
  if (!headers.authorization)
    throw unauthorized("Missing credentials: send Authorization: Bearer <token> or X-API-Key");
  const match = /^Bearer\s+(\S+)\s*$/i.exec(headers.authorization);
  if (!match?.[1]) throw unauthorized("Malformed Authorization header: expected Bearer <token>");
  return match[1];
}

/**
 * Establishes who is calling: a JWT (verified with no D1 read) or an API key (one indexed lookup,
 * which also brings the key's tenant and its creator's role, which caps the key's scopes). Missing,
 * malformed, expired or revoked, or a key whose creator left the tenant -> 401.
 */
export const authenticate = createMiddleware<AppEnv>(async (c, next) => {
  const credential = credentialOf({
    apiKey: c.req.header("x-api-key"),
    authorization: c.req.header("authorization"),
  });
  let principal: Principal;
  if (looksLikeApiKey(credential)) {
    const db = platformDb(c.env, c.var.d1Stats);
    const key = await findApiKey(db, credential);
    const now = new Date();
    if (!key) throw unauthorized("Invalid API key");
    if (key.revokedAt) throw unauthorized("API key has been revoked");
    if (!key.creatorId) throw unauthorized("API key no longer works: its creator left the tenant");
    if (key.expiresAt && Date.parse(key.expiresAt) <= now.getTime())
      throw unauthorized("API key has expired");
    if (key.allowedIps?.length && !ipAllowed(c.req.header("cf-connecting-ip"), key.allowedIps)) {
      throw new AppError("FORBIDDEN", "Client IP address is not in this API key's allow list");
    }
    // Off the critical path: its own handle, so the request's round-trip count does not include it.
    if (lastUsedIsStale(key.lastUsedAt, now))
      c.executionCtx.waitUntil(touchApiKey(platformDb(c.env), key.id, now));
    principal = {
      type: "api_key",
      id: key.id,
      creatorId: key.creatorId,
      scopes: key.scopes,
      tenant: key.tenant,
    };
  } else {
    const { userId, tokenId } = await verifyAccessToken(c.env.JWT_SECRET, credential);
    principal = { type: "user", id: userId, tokenId };
  }
  c.set("principal", principal);
  await next();
});

/**
 * For public routes that a signed-in person may also call (accepting an invitation): the user of the
 * request's access token, or undefined without one. An API key is no person (401), nor is a bad token.
 */
export async function signedInUserId(c: AppContext): Promise<string | undefined> {
  const authorization = c.req.header("authorization");
  if (!authorization) return undefined;
  const credential = credentialOf({ authorization });
  if (looksLikeApiKey(credential))
    throw unauthorized("Send a user's access token: an API key is not a person");
  return (await verifyAccessToken(c.env.JWT_SECRET, credential)).userId;
}
