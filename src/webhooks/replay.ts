import { and, asc, count, eq, gte, inArray, lte, sql } from "drizzle-orm";
import { uuidv7 } from "uuidv7";
import { runBatch } from "../db/batch";
import type { TenantDb } from "../db/client";
import { webhookDeliveries as d, outboxEvents as o } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import type { Bindings } from "../env";
import { conflict } from "../http/errors";
import { validationError } from "../http/validation";
import { feedTypes } from "../outbox/catalog";
import { insertDeliveries, insertedIds } from "../webhook-delivery/insert-deliveries";
import { queueDeliveries } from "../webhook-delivery/queue-deliveries";
import { getSubscription } from "./read-webhook";
import type { ReplayBody } from "./schemas";

/** Events one replay may deliver again. */
export const MAX_REPLAY = 10_000;
/** Deliveries one subscription may have waiting at once, replays and new events together. */
export const MAX_QUEUED = 10_000;

/**
 * `POST /webhooks/{id}/replay`: every stored event from `from` to `to` (both inclusive) that the
 * subscription matches (and `types`, if given; for a merchant's subscription, that merchant's events) becomes a new delivery of the same event: same
 * `webhook-id`, so a receiver de-duplicates what it already has. Deliveries carry the replay's id
 * (unique per subscription, event and replay), are queued before the answer, and follow the usual retries.
 * An event an earlier replay has waiting for this subscription is left out (`alreadyWaiting`), and a replay that could
 * take the subscription past MAX_QUEUED waiting deliveries is refused whole (409).
 */
export async function replayEvents(env: Bindings, tdb: TenantDb, subscriptionId: string, input: ReplayBody) {
  const subscription = await getSubscription(tdb, subscriptionId);
  if (!subscription.active) {
    throw conflict("This subscription is disabled; re-enable it (PUT with active: true) before replaying");
  }
  const from = new Date(input.from).toISOString();
  const to = new Date(input.to).toISOString();
  if (from > to) throw validationError(["to: must not be before from"]);
  const subscribed = subscription.events.includes("*")
    ? feedTypes
    : feedTypes.filter((type) => subscription.events.includes(type));
  const types = input.types ? subscribed.filter((type) => input.types?.includes(type)) : subscribed;
  if (types.length === 0) return { replayId: null, queued: 0, alreadyWaiting: 0 };

  const events = await tdb.db
    .select({ id: o.id, type: o.type })
    .from(o)
    .where(
      inTenant(
        tdb,
        o,
        and(gte(o.createdAt, from), lte(o.createdAt, to)),
        inArray(o.type, [...types]),
        // A merchant's subscription gets its merchant's events, whoever replays to it (the fan-out's rule).
        subscription.merchantId === null ? undefined : eq(o.merchantId, subscription.merchantId),
      ),
    )
    .orderBy(asc(o.seq))
    .limit(MAX_REPLAY + 1);
  if (events.length > MAX_REPLAY) {
    throw validationError([
      `from: more than ${MAX_REPLAY} events in this range; replay it in shorter ranges`,
    ]);
  }
  if (events.length === 0) return { replayId: null, queued: 0, alreadyWaiting: 0 };

  const replayId = uuidv7();
  const now = new Date().toISOString();
  const ofSubscription = sql`${d.tenantId} = ${tdb.tenantId} and ${d.subscriptionId} = ${subscriptionId}`;
  // Checked inside every insert (so concurrent replays cannot pass the bound together) against the deliveries
  // waiting that are not this replay's own, a number the batch's earlier inserts do not change.
  const othersWaiting = sql`(select count(*) from ${d} where ${ofSubscription} and ${d.status} = 'pending' and ${d.replayId} <> ${replayId})`;
  // An event an earlier replay still has waiting for this subscription (the same range replayed again) is not
  // queued twice. Its first delivery does not count: a receiver that missed it is why one replays.
  const notWaiting = sql`not exists (select 1 from ${d} where ${ofSubscription} and ${d.eventId} = json_extract(value, '$.eventId') and ${d.replayId} <> '' and ${d.status} = 'pending')`;
  const written = await runBatch(tdb, {
    waiting: tdb.db
      .select({ n: count() })
      .from(d)
      .where(inTenant(tdb, d, eq(d.subscriptionId, subscriptionId), eq(d.status, "pending"))),
    deliveries: insertDeliveries(
      tdb,
      events.map((event) => ({ id: uuidv7(), subscriptionId, eventId: event.id, eventType: event.type })),
      { replayId, now, guard: sql`${othersWaiting} + ${events.length} <= ${MAX_QUEUED} and ${notWaiting}` },
    ),
  });
  const waiting = written.waiting[0]?.n ?? 0;
  if (waiting + events.length > MAX_QUEUED) {
    throw conflict(
      `This subscription has ${waiting} deliveries waiting and this replay would add up to ${events.length}: at most ` +
        `${MAX_QUEUED} may wait at once. Let them go out (GET /webhooks/{id}/deliveries?status=pending), or replay a shorter range`,
    );
  }
  const ids = insertedIds(written.deliveries);
  await queueDeliveries(env, tdb.tenantId, ids);
  return { replayId, queued: ids.length, alreadyWaiting: events.length - ids.length };
}
