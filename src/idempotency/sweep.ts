import { lte } from "drizzle-orm";
import { platformDb } from "../db/client";
import { idempotencyKeys } from "../db/schema";
import type { Bindings } from "../env";

/** Deletes Idempotency-Key records past their 24 hours (run by the cron trigger). */
export async function sweepIdempotencyKeys(env: Bindings, now = new Date()) {
  const result = await platformDb(env)
    .delete(idempotencyKeys)
    .where(lte(idempotencyKeys.expiresAt, now.toISOString()));
  return result.meta.changes;
}
