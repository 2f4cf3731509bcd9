import { and, asc, eq, exists, inArray, lte, sql } from "drizzle-orm";
import { chunks, runBatch, type Statement } from "../db/batch";
import { dbFor, type TenantDb, tenantDatabases } from "../db/client";
import { stockHolds as h } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import type { Bindings } from "../env";
import { handOffEvents } from "../outbox/hand-off";
import { eventRow } from "../outbox/outbox";
import { selectHolds, toHold } from "./hold-projection";
import type { HoldRecord } from "./schemas";
import { changeLevel } from "./statements";

export type ReleaseReason = "released" | "expired" | "consumed";

/** Whether the hold still reserves its stock (inside a batch: after the statements before it). */
const stillActive = (tdb: TenantDb, holdId: string) =>
  exists(
    tdb.db
      .select({ one: sql`1` })
      .from(h)
      .where(inTenant(tdb, h, eq(h.id, holdId), eq(h.status, "active"))),
  );

/**
 * The one way a hold ends, whatever the reason: its allocations leave `reserved`, an
 * `inventory.hold_released` event is written and the hold takes its final status, all guarded by "still
 * active" so that of two releases racing (a DELETE and the sweep) exactly one has any effect.
 */
export function releaseHold(
  tdb: TenantDb,
  hold: HoldRecord,
  reason: ReleaseReason,
  now: string,
  orderId: string | null = null,
): Statement[] {
  const active = stillActive(tdb, hold.id);
  const after: HoldRecord = { ...hold, status: reason, orderId, releasedAt: now, updatedAt: now };
  return [
    ...hold.allocations.map((a) =>
      changeLevel(
        tdb,
        { productId: hold.productId, locationId: a.locationId, lotId: a.lotId ?? undefined },
        { reserved: -a.quantity },
        now,
        active,
      ),
    ),
    eventRow(tdb, "inventory.hold_released", { ...after, reason }, now, { onlyIf: active }),
    // Last: once the status moves, every statement above is a no-op for a racing release.
    tdb.db
      .update(h)
      .set({ status: reason, orderId, releasedAt: now, updatedAt: now })
      .where(inTenant(tdb, h, eq(h.id, hold.id), eq(h.status, "active"))),
  ];
}

// Holds released per batch by the sweep (a few statements each).
const HOLDS_PER_BATCH = 20;
const PER_RUN = 500;

/**
 * The cron trigger's expiry sweep (every minute): every active hold past `expiresAt` gives its stock back,
 * with `inventory.hold_released` (reason `expired`). Reservations that meet expired holds release them
 * themselves, so this only bounds how long an expired hold shows in `reserved` (60 s).
 */
export async function sweepExpiredHolds(env: Bindings, now = new Date()): Promise<number> {
  const at = now.toISOString();
  let released = 0;
  for (const database of tenantDatabases(env)) {
    const due = await database
      .select({ id: h.id, tenantId: h.tenantId })
      .from(h)
      .where(and(eq(h.status, "active"), lte(h.expiresAt, at)))
      .orderBy(asc(h.expiresAt))
      .limit(PER_RUN);
    const byTenant = new Map<string, string[]>();
    for (const { id, tenantId } of due) byTenant.set(tenantId, [...(byTenant.get(tenantId) ?? []), id]);
    for (const [tenantId, ids] of byTenant) {
      const tdb = await dbFor(env, tenantId);
      for (const chunk of chunks(ids, HOLDS_PER_BATCH)) {
        const holds = (await selectHolds(tdb, at, inArray(h.id, chunk))).map(toHold);
        await runBatch(tdb, { release: holds.flatMap((hold) => releaseHold(tdb, hold, "expired", at)) });
      }
      await handOffEvents(env, tdb, tdb.committedEvents.splice(0));
    }
    released += due.length;
  }
  return released;
}
