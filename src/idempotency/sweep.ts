import { lte } from "drizzle-orm";
import { tenantDatabases } from "../db/client";
import { idempotencyKeys } from "../db/schema/tenant";
import type { Bindings } from "../env";

/** Deletes Idempotency-Key records past their 24 hours (run by the cron trigger). */
export async function sweepIdempotencyKeys(env: Bindings, now = new Date()) {
  const deleted = await Promise.all(
    tenantDatabases(env).map((db) =>
      db.delete(idempotencyKeys).where(lte(idempotencyKeys.expiresAt, now.toISOString())),
    ),
  );
  return deleted.reduce((sum, result) => sum + result.meta.changes, 0);
}
