import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { platformDb } from "../db/client";
import { D1Stats } from "../db/d1-stats";
import type { AppContext, AppEnv } from "../env";
import { AppError } from "../http/errors";
import { findApiKey, lastUsedIsStale, looksLikeApiKey, touchApiKey } from "./api-keys";
import { ipAllowed } from "./ip-allow-list";
import { verifyAccessToken } from "./jwt";
import { forgetKey, keyHashOf, rememberedKey, rememberKey, sameView } from "./key-views";
import type { Principal } from "./principal";
import { keyRights, keyStopped } from "./rights";

type KeyPrincipal = Extract<Principal, { type: "api_key" }>;

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

/** The key's principal if its lookup allows this request; 401/403 otherwise (and the isolate forgets the key). */
async function principalOfKey(
  c: Context<AppEnv>,
  keyHash: string,
  lookup: ReturnType<typeof findApiKey>,
): Promise<KeyPrincipal> {
  const key = await lookup;
  const now = new Date();
  const stopped = key && keyStopped(key, now);
  const rights = key && keyRights(key, now);
  const refusal = !key
    ? unauthorized("Invalid API key")
    : stopped === "revoked"
      ? unauthorized("API key has been revoked")
      : stopped === "expired"
        ? unauthorized("API key has expired")
        : rights && "lost" in rights
          ? unauthorized(`API key no longer works: ${rights.lost}`)
          : key.allowedIps?.length && !ipAllowed(c.req.header("cf-connecting-ip"), key.allowedIps)
            ? new AppError("FORBIDDEN", "Client IP address is not in this API key's allow list")
            : undefined;
  if (refusal || !key?.creatorId || !rights || "lost" in rights) {
    forgetKey(keyHash);
    throw refusal ?? unauthorized("Invalid API key");
  }
  // Off the critical path: its own handle, so the request's round-trip count does not include it.
  if (lastUsedIsStale(key.lastUsedAt, now))
    c.executionCtx.waitUntil(touchApiKey(platformDb(c.env), key.id, now));
  const principal: KeyPrincipal = {
    type: "api_key",
    id: key.id,
    creatorId: key.creatorId,
    grantorKeys: key.grantorKeys ?? [],
    scopes: rights.scopes,
    tenant: key.tenant,
    merchantId: rights.merchantId,
  };
  rememberKey(keyHash, principal);
  return principal;
}

const reads = new Set(["GET", "HEAD"]);

/**
 * Establishes who is calling: a JWT (verified with no D1 read) or an API key (one indexed lookup, which
 * also brings the key's tenant, its shard, the keys that made it and its creator's membership, which bound the
 * key's rights). Missing, malformed, expired or revoked, or a key left with no rights (its creator left the tenant,
 * a key above it was revoked or expired, its merchant is not its creator's) -> 401.
 *
 * A read with a key this isolate has seen does not wait for the lookup: it runs on what the key's last
 * lookup said while this request's lookup runs alongside (one round trip for both), and its response is
 * used only if the lookup allows the request and agrees with that view (docs/decisions/scale-out.md).
 * `gatedWrites`: the route's handler awaits `confirmedKeyView` before it writes, so a write may start on the
 * view too (its reads alongside the lookup); not with an Idempotency-Key, whose claim writes before the handler.
 */
function authenticator(gatedWrites: boolean) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const credential = credentialOf({
      apiKey: c.req.header("x-api-key"),
      authorization: c.req.header("authorization"),
    });
    if (!looksLikeApiKey(credential)) {
      const { userId, tokenId, sessionId } = await verifyAccessToken(c.env.JWT_SECRET, credential);
      c.set("principal", { type: "user", id: userId, tokenId, sessionId });
      return next();
    }
    const keyHash = await keyHashOf(credential);
    const read = reads.has(c.req.method);
    const mayGuess = read || (gatedWrites && c.req.header("idempotency-key") === undefined);
    const remembered = mayGuess && c.var.keyView.mayGuess ? rememberedKey(keyHash) : undefined;
    if (!remembered) {
      c.set(
        "principal",
        await principalOfKey(c, keyHash, findApiKey(platformDb(c.env, c.var.d1Stats), keyHash)),
      );
      return next();
    }
    // A read's lookup runs alongside the whole chain: counted as one round trip, never before the read. A
    // write's is counted in the chain itself, since its batch waits for it (it starts with the first reads).
    const lookupStats = read ? new D1Stats() : c.var.d1Stats;
    // The response stands only if the lookup confirms the view it was built on. A changed view, a refusal or a
    // failed lookup serves the request again, waiting for its own lookup: its answer (a 401, a 500) then carries
    // nothing the guess produced, such as the remembered tenant's rate-limit headers or a refusal's Retry-After.
    const confirmation = principalOfKey(c, keyHash, findApiKey(platformDb(c.env, lookupStats), keyHash)).then(
      (principal) => sameView(principal, remembered),
      () => false,
    );
    c.set("principal", remembered);
    if (!read) c.set("keyView", { ...c.var.keyView, confirmation });
    await next();
    const confirmed = await confirmation;
    if (read) c.var.d1Stats.includeAlongside(lookupStats);
    if (!confirmed) c.set("keyView", { ...c.var.keyView, contradicted: true });
  });
}

export const authenticate = authenticator(false);
/** For a route whose handler writes only after `confirmedKeyView` (src/auth/key-views.ts). */
export const authenticateGatedWrites = authenticator(true);

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
