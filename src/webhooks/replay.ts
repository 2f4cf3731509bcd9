import { and, asc, gte, inArray, lte, sql } from "drizzle-orm";
import { uuidv7 } from "uuidv7";
import { chunks, runBatch } from "../db/batch";
import type { TenantDb } from "../db/client";
import { outboxEvents as o } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import type { Bindings } from "../env";
import { feedTypes } from "../events/catalog";
import { conflict } from "../http/errors";
import { validationError } from "../http/validation";
import { queueDeliveries } from "./queue-deliveries";
import { getSubscription } from "./read-webhook";
import type { ReplayBody } from "./schemas";

/** Events one replay may deliver again. */
export const MAX_REPLAY = 10_000;
// Deliveries travel as one JSON parameter per insert.
const DELIVERIES_PER_INSERT = 1_000;

/**
 * `POST /webhooks/{id}/replay`: every stored event from `from` to `to` (both inclusive) that the
 * subscription matches (and `types`, if given) becomes a new delivery of the same event: same
 * `webhook-id`, so a receiver de-duplicates what it already has. Deliveries carry the replay's id
 * (unique per subscription, event and replay), are queued before the answer, and follow the usual retries.
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
  if (types.length === 0) return { replayId: null, queued: 0 };

  const events = await tdb.db
    .select({ id: o.id, type: o.type })
    .from(o)
    .where(inTenant(tdb, o, and(gte(o.createdAt, from), lte(o.createdAt, to)), inArray(o.type, [...types])))
    .orderBy(asc(o.seq))
    .limit(MAX_REPLAY + 1);
  if (events.length > MAX_REPLAY) {
    throw validationError([
      `from: more than ${MAX_REPLAY} events in this range; replay it in shorter ranges`,
    ]);
  }
  if (events.length === 0) return { replayId: null, queued: 0 };

  const replayId = uuidv7();
  const now = new Date().toISOString();
  const deliveries = events.map((event) => ({ id: uuidv7(), eventId: event.id, type: event.type }));
  await runBatch(tdb, {
    deliveries: chunks(deliveries, DELIVERIES_PER_INSERT).map(
      (
        chunk,
      ) => sql`insert into webhook_deliveries (id, tenant_id, subscription_id, event_id, event_type, replay_id,
          status, attempts, next_attempt_at, created_at, updated_at)
        select json_extract(value, '$.id'), ${tdb.tenantId}, ${subscriptionId}, json_extract(value, '$.eventId'),
          json_extract(value, '$.type'), ${replayId}, 'pending', 0, ${now}, ${now}, ${now}
        from json_each(${JSON.stringify(chunk)})`,
    ),
  });
  await queueDeliveries(
    env,
    tdb.tenantId,
    deliveries.map(({ id }) => id),
  );
  return { replayId, queued: deliveries.length };
}
