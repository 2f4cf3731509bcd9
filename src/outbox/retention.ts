import { and, asc, eq, gt, lt, lte } from "drizzle-orm";
import { runBatch } from "../db/batch";
import { dbFor, type TenantDb, tenantDatabases } from "../db/client";
import { eventSweeps, outboxEvents as o } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import type { Bindings } from "../env";

/** Events are kept at least this long (the feed and replay read them). */
export const RETENTION_MS = 30 * 24 * 60 * 60 * 1000;
// Bounds one run: tenants with old events, and events deleted per tenant (the next minute continues).
const TENANTS_PER_RUN = 20;
const EVENTS_PER_TENANT = 5_000;

/**
 * The cron trigger's retention sweep: deletes each tenant's events older than 30 days in commit order and
 * records how far (`event_sweeps`), so a feed cursor before that mark is a 410, never a silent gap. It
 * walks by seq and stops at the first event younger than 30 days: nothing younger is ever deleted, even
 * when clocks made timestamps slightly out of commit order.
 */
export async function sweepOldEvents(env: Bindings, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - RETENTION_MS).toISOString();
  let deleted = 0;
  for (const database of tenantDatabases(env)) {
    // A covering scan of the (tenant_id, created_at) index: the tenants that have events to sweep.
    const due = await database
      .selectDistinct({ id: o.tenantId })
      .from(o)
      .where(lt(o.createdAt, cutoff))
      .limit(TENANTS_PER_RUN);
    for (const { id } of due) deleted += await sweepTenant(await dbFor(env, id), cutoff, now);
  }
  return deleted;
}

async function sweepTenant(tdb: TenantDb, cutoff: string, now: Date): Promise<number> {
  const [mark] = await tdb.db
    .select({ through: eventSweeps.sweptThroughSeq })
    .from(eventSweeps)
    .where(eq(eventSweeps.tenantId, tdb.tenantId));
  const from = mark?.through ?? 0;
  const next = await tdb.db
    .select({ seq: o.seq, createdAt: o.createdAt })
    .from(o)
    .where(inTenant(tdb, o, gt(o.seq, from)))
    .orderBy(asc(o.seq))
    .limit(EVENTS_PER_TENANT);
  const young = next.findIndex((event) => event.createdAt >= cutoff);
  const old = young === -1 ? next : next.slice(0, young);
  const through = old.at(-1)?.seq;
  if (through === undefined) return 0;
  await runBatch(tdb, {
    delete: tdb.db.delete(o).where(inTenant(tdb, o, and(gt(o.seq, from), lte(o.seq, through)))),
    mark: tdb.db
      .insert(eventSweeps)
      .values({ tenantId: tdb.tenantId, sweptThroughSeq: through, sweptAt: now.toISOString() })
      .onConflictDoUpdate({
        target: eventSweeps.tenantId,
        set: { sweptThroughSeq: through, sweptAt: now.toISOString() },
      }),
  });
  return old.length;
}
