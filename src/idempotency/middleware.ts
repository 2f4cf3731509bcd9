import { and, eq, lte } from "drizzle-orm";
import { createMiddleware } from "hono/factory";
import { sha256Hex } from "../crypto/hashing";
import { seal, unseal } from "../crypto/sealed-box";
import { runBatch } from "../db/batch";
import { idempotencyKeys } from "../db/schema/tenant";
import type { AppEnv } from "../env";
import { AppError } from "../http/errors";

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60_000;
const VALID_KEY = /^[\x21-\x7e]{1,255}$/;
// Headers of the original response that a replay must repeat (rate-limit headers are per request).
const REPLAYED_HEADERS = ["content-type", "location", "etag"];
// Stored bodies are sealed under WEBHOOK_SECRET_KEY with their own purpose: they may hold a new API key
// or webhook secret, which must not sit in the database in plain for 24 hours.
const PURPOSE = "idempotent-responses";

/**
 * `Idempotency-Key` on every tenant write (README, "Concepts and invariants"): the first request with a key claims it and its
 * response is stored, encrypted; a retry by the same credential with the same body gets that response
 * again with `Idempotent-Replayed: true` and changes nothing. Keys are per tenant, belong to the API key
 * or user that claimed them (anyone else using one gets 422, never its response), and are kept 24 hours.
 */
export const idempotency = createMiddleware<AppEnv>(async (c, next) => {
  const key = c.req.header("idempotency-key");
  if (key === undefined) return next();
  if (!VALID_KEY.test(key)) {
    throw new AppError("BAD_REQUEST", "Idempotency-Key must be 1 to 255 visible ASCII characters", {
      errors: ["Idempotency-Key: must be 1 to 255 visible ASCII characters"],
    });
  }
  const tdb = c.var.tenantDb;
  const { db, tenantId } = tdb;
  const credential = `${c.var.principal.type}:${c.var.principal.id}`;
  const requestHash = await sha256Hex(`${c.req.method} ${c.req.path}\n${await c.req.text()}`);
  const now = new Date();
  const ofKey = and(eq(idempotencyKeys.tenantId, tenantId), eq(idempotencyKeys.key, key));
  // Claim the key (an expired record no longer counts); exactly one concurrent request inserts.
  const { claim } = await runBatch(tdb, {
    expired: db.delete(idempotencyKeys).where(and(ofKey, lte(idempotencyKeys.expiresAt, now.toISOString()))),
    claim: db
      .insert(idempotencyKeys)
      .values({
        tenantId,
        key,
        credential,
        requestHash,
        status: "in_flight",
        createdAt: now.toISOString(),
        expiresAt: new Date(now.getTime() + IDEMPOTENCY_TTL_MS).toISOString(),
      })
      .onConflictDoNothing(),
  });
  if (claim.meta.changes === 0) {
    const [stored] = await db.select().from(idempotencyKeys).where(ofKey).limit(1);
    if (!stored) throw new AppError("CONFLICT", "This Idempotency-Key is being reused; retry the request");
    if (stored.credential !== credential) {
      throw new AppError("UNPROCESSABLE", "This Idempotency-Key was used by another credential", {
        errors: ["Idempotency-Key: already used by another API key or user"],
      });
    }
    if (stored.requestHash !== requestHash) {
      throw new AppError("UNPROCESSABLE", "This Idempotency-Key was used with a different request", {
        errors: ["Idempotency-Key: already used with a different method, path or body"],
      });
    }
    if (stored.status === "in_flight") {
      // Retry-After tells a client this 409 is worth retrying, unlike a conflict of state.
      throw new AppError(
        "CONFLICT",
        "A request with this Idempotency-Key is still in progress; retry later",
        {
          headers: { "Retry-After": "1" },
        },
      );
    }
    const body =
      stored.sealedResponseBody === null
        ? null
        : await unseal(c.env.WEBHOOK_SECRET_KEY, PURPOSE, stored.sealedResponseBody);
    c.res = new Response(body, {
      status: stored.responseStatus ?? 200,
      headers: { ...stored.responseHeaders, "Idempotent-Replayed": "true" },
    });
    return;
  }

  await next();

  // A server error committed nothing the client can rely on: release the key so a retry runs again.
  if (c.res.status >= 500) {
    await db.delete(idempotencyKeys).where(ofKey);
    return;
  }
  const headers = Object.fromEntries(
    REPLAYED_HEADERS.flatMap((name) => {
      const value = c.res.headers.get(name);
      return value ? [[name, value]] : [];
    }),
  );
  await db
    .update(idempotencyKeys)
    .set({
      status: "completed",
      responseStatus: c.res.status,
      sealedResponseBody: await seal(c.env.WEBHOOK_SECRET_KEY, PURPOSE, await c.res.clone().text()),
      responseHeaders: headers,
    })
    .where(ofKey);
});
