import { chunks } from "../db/batch";
import { dbFor, type TenantDb } from "../db/client";
import { outboxEvents } from "../db/schema/tenant";
import { inTenantAmong } from "../db/tenant-scope";
import type { Bindings } from "../env";

// A Queue sendBatch takes at most 100 messages.
const MESSAGES_PER_SEND = 100;

/**
 * Hands committed outbox events to the queue and marks them dispatched. Whatever fails here the cron
 * sweep re-enqueues (an event is delivered at least once; deliveries are unique per subscription and event).
 * The writer passes the handle its events were committed through, so the directory is not read again; each
 * message names that shard, which spares the consumer its directory read too (webhook-delivery/fan-out.ts).
 */
export async function handOffEvents(
  env: Bindings,
  tenant: string | Pick<TenantDb, "tenantId" | "shard">,
  eventIds: readonly string[],
): Promise<void> {
  if (eventIds.length === 0) return;
  // Its own handle: work in waitUntil is off the request's critical path and must not count in its stats.
  const tdb = await dbFor(
    env,
    typeof tenant === "string" ? tenant : { id: tenant.tenantId, shard: tenant.shard },
  );
  const { tenantId, shard } = tdb;
  await Promise.all(
    chunks(eventIds, MESSAGES_PER_SEND).map((ids) =>
      env.WEBHOOK_QUEUE.sendBatch(
        ids.map((eventId) => ({ body: { kind: "event", tenantId, shard, eventId } })),
      ),
    ),
  );
  await tdb.db
    .update(outboxEvents)
    .set({ dispatchedAt: new Date().toISOString() })
    .where(inTenantAmong(tdb, outboxEvents, eventIds));
}
