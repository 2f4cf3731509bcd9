import { eq, isNull, notExists, or, type SQL, sql } from "drizzle-orm";
import { uuidv7 } from "uuidv7";
import { runBatch } from "../db/batch";
import { dbFor, type TenantDb } from "../db/client";
import { outboxEvents, webhookSubscriptions } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import type { Bindings } from "../env";
import { insertDeliveries, insertedIds } from "./insert-deliveries";
import { queueDeliveries } from "./queue-deliveries";

/**
 * Active subscriptions of the tenant that want the event being fanned out (`outbox_events` in the query): all
 * events or its type by name, and, for one made by a merchant-scoped credential, an event of that merchant.
 */
const wanting = (tdb: TenantDb) =>
  inTenant(
    tdb,
    webhookSubscriptions,
    eq(webhookSubscriptions.active, true),
    sql`exists (select 1 from json_each(${webhookSubscriptions.events}) where value in ('*', ${outboxEvents.type}))`,
    or(isNull(webhookSubscriptions.merchantId), eq(webhookSubscriptions.merchantId, outboxEvents.merchantId)),
  );

/** What becomes of the deliveries a fan-out created: queued (the consumer), or attempted at once (deliver-now.ts). */
export type SendDeliveries = (
  env: Bindings,
  tenantId: string,
  deliveryIds: readonly string[],
) => Promise<void>;

/**
 * Turns one committed event into one delivery per matching active subscription, sends them (`send`: queued
 * unless the committing request attempts them itself), and marks the event processed (the dispatch sweep hands off again an event left unprocessed). Running it twice for the same
 * event, a doubled hand-off, creates and queues no second delivery (unique subscription + event). Every matching
 * subscription's delivery is inserted in one batch, in statements sized by D1's limits, however many match.
 *
 * `shard` is where the hand-off saw the event committed: reading there spares a directory read per event. If
 * the tenant has moved since, the old shard's fence refuses the writes below (the message is retried, and a
 * retry asks the directory, src/queue.ts) or its copy is already gone (the directory is asked at once).
 */
export async function fanOutEvent(
  env: Bindings,
  tenantId: string,
  eventId: string,
  shard?: string,
  send: SendDeliveries = queueDeliveries,
): Promise<number> {
  if (shard !== undefined) {
    const sent = await fanOutOn(env, await dbFor(env, { id: tenantId, shard }), eventId, send);
    if (sent !== undefined) return sent;
  }
  return (await fanOutOn(env, await dbFor(env, tenantId), eventId, send)) ?? 0;
}

/** The fan-out on one shard; undefined if the event is not there. */
async function fanOutOn(
  env: Bindings,
  tdb: TenantDb,
  eventId: string,
  send: SendDeliveries,
): Promise<number | undefined> {
  const now = new Date().toISOString();
  const read = await runBatch(tdb, {
    event: tdb.db
      .select({ type: outboxEvents.type })
      .from(outboxEvents)
      .where(inTenant(tdb, outboxEvents, eq(outboxEvents.id, eventId)))
      .limit(1),
    subscriptions: tdb.db
      .select({ id: webhookSubscriptions.id })
      .from(webhookSubscriptions)
      .innerJoin(outboxEvents, inTenant(tdb, outboxEvents, eq(outboxEvents.id, eventId)))
      .where(wanting(tdb)),
    // An event nobody subscribed to is done in this same round trip.
    unwanted: markProcessed(
      tdb,
      eventId,
      now,
      notExists(tdb.db.select({ one: sql`1` }).from(webhookSubscriptions).where(wanting(tdb))),
    ),
  });
  const [event] = read.event;
  if (!event) return undefined;
  // webhook.test goes only to the subscription it was sent to (written with its delivery, processed).
  if (event.type === "webhook.test" || read.subscriptions.length === 0) return 0;
  const inserted = await runBatch(tdb, {
    deliveries: insertDeliveries(
      tdb,
      read.subscriptions.map((subscription) => ({
        id: uuidv7(),
        subscriptionId: subscription.id,
        eventId,
        eventType: event.type,
      })),
      { replayId: "", now },
    ),
    // In the same batch: once its deliveries exist, a lost queue message (or an isolate that died before its first
    // attempt) is the overdue-delivery sweep's to resend.
    processed: markProcessed(tdb, eventId, now),
  });
  const ids = insertedIds(inserted.deliveries);
  await send(env, tdb.tenantId, ids);
  return ids.length;
}

/**
 * Marks the event fanned out (webhook.test is stored processed by its writer, so never matches here), and handed
 * off if its committing request fanned it out itself (no queue hand-off stamped it).
 */
const markProcessed = (tdb: TenantDb, eventId: string, now: string, onlyIf?: SQL) =>
  tdb.db
    .update(outboxEvents)
    .set({ processedAt: now, dispatchedAt: sql`coalesce(${outboxEvents.dispatchedAt}, ${now})` })
    .where(
      inTenant(tdb, outboxEvents, eq(outboxEvents.id, eventId), isNull(outboxEvents.processedAt), onlyIf),
    );
