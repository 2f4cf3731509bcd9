import { type SQL, sql } from "drizzle-orm";
import { chunks } from "../db/batch";
import type { TenantDb } from "../db/client";

/** A delivery to create: one event to one subscription. */
export interface NewDelivery {
  id: string;
  subscriptionId: string;
  eventId: string;
  eventType: string;
}

// The rows travel as one JSON parameter per statement (D1 binds at most 100 parameters per statement, and a
// row has 11 values): 1,000 rows are about 130 KB of JSON, far below D1's 1 MB for one value.
const ROWS_PER_INSERT = 1_000;

/**
 * The statements that insert `deliveries` (run them in one batch), pending from `now`: `replayId` is '' for
 * an event's first fan-out. A delivery that exists (unique subscription, event and replay) is skipped, and so
 * is every row when `guard` (SQL over the statement, `value` being the row's JSON) is false. Each statement's
 * result lists the ids it inserted.
 */
export function insertDeliveries(
  tdb: TenantDb,
  deliveries: readonly NewDelivery[],
  { replayId, now, guard }: { replayId: string; now: string; guard?: SQL },
): SQL[] {
  return chunks(deliveries, ROWS_PER_INSERT).map(
    (
      rows,
    ) => sql`insert into webhook_deliveries (id, tenant_id, subscription_id, event_id, event_type, replay_id,
        status, attempts, next_attempt_at, created_at, updated_at)
      select json_extract(value, '$.id'), ${tdb.tenantId}, json_extract(value, '$.subscriptionId'),
        json_extract(value, '$.eventId'), json_extract(value, '$.eventType'), ${replayId}, 'pending', 0, ${now}, ${now}, ${now}
      from json_each(${JSON.stringify(rows)})
      where ${guard ?? sql`1`}
      on conflict do nothing
      returning id`,
  );
}

/** The ids a batch of `insertDeliveries` statements inserted. */
export const insertedIds = (results: readonly D1Result[]) =>
  results.flatMap((result) => (result.results as { id: string }[]).map(({ id }) => id));
