import { and, eq, lte } from "drizzle-orm";
import { createMiddleware } from "hono/factory";
import { sha256Hex } from "../auth/hashing";
import { idempotencyKeys } from "../db/schema/tenant";
import type { AppEnv } from "../env";
import { AppError } from "../http/errors";

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60_000;
const VALID_KEY = /^[\x21-\x7e]{1,255}$/;
// Headers of the original response that a replay must repeat (rate-limit headers are per request).
const REPLAYED_HEADERS = ["content-type", "location", "etag"];

/**
 * `Idempotency-Key` on POST (contract section 10): the first request with a key claims it and its
 * response is stored; a retry with the same body gets that response again with
 * `Idempotent-Replayed: true` and changes nothing. Keys are per tenant and kept 24 hours.
 */
export const idempotency = createMiddleware<AppEnv>(async (c, next) => {
  const key = c.req.header("idempotency-key");
  if (key === undefined) return next();
  if (!VALID_KEY.test(key)) {
    throw new AppError("BAD_REQUEST", "Idempotency-Key must be 1 to 255 visible ASCII characters", {
      errors: ["Idempotency-Key: must be 1 to 255 visible ASCII characters"],
    });
  }
  const { db, tenantId } = c.var.tenantDb;
  const requestHash = await sha256Hex(`${c.req.method} ${c.req.path}\n${await c.req.text()}`);
  const now = new Date();
  const ofKey = and(eq(idempotencyKeys.tenantId, tenantId), eq(idempotencyKeys.key, key));
  // Claim the key (an expired record no longer counts); exactly one concurrent request inserts.
  const [, claim] = await db.batch([
    db.delete(idempotencyKeys).where(and(ofKey, lte(idempotencyKeys.expiresAt, now.toISOString()))),
    db
      .insert(idempotencyKeys)
      .values({
        tenantId,
        key,
        requestHash,
        status: "in_flight",
        createdAt: now.toISOString(),
        expiresAt: new Date(now.getTime() + IDEMPOTENCY_TTL_MS).toISOString(),
      })
      .onConflictDoNothing(),
  ]);
  if (claim.meta.changes === 0) {
    const [stored] = await db.select().from(idempotencyKeys).where(ofKey).limit(1);
    if (!stored) throw new AppError("CONFLICT", "This Idempotency-Key is being reused; retry the request");
    if (stored.requestHash !== requestHash) {
      throw new AppError("UNPROCESSABLE", "This Idempotency-Key was used with a different request", {
        errors: ["Idempotency-Key: already used with a different method, path or body"],
      });
    }
    if (stored.status === "in_flight") {
      throw new AppError("CONFLICT", "A request with this Idempotency-Key is still in progress; retry later");
    }
    c.res = new Response(stored.responseBody, {
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
      responseBody: await c.res.clone().text(),
      responseHeaders: headers,
    })
    .where(ofKey);
});
