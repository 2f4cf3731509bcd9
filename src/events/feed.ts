import { asc, eq, gt, inArray, max, type SQL, sql } from "drizzle-orm";
import type { Scope } from "../auth/scopes";
import { runBatch } from "../db/batch";
import type { TenantDb } from "../db/client";
import { eventSweeps, outboxEvents as o } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import { AppError } from "../http/errors";
import { type FeedType, feedTypes } from "../outbox/catalog";
import { readableTypes } from "../outbox/readable-types";
import { decodeCursor, encodeCursor, notACursor } from "./cursor";
import type { FeedEvent, FeedQuery } from "./schemas";

const typeFilter = (types: readonly FeedType[]): SQL | undefined =>
  types.length === feedTypes.length ? sql`${o.type} <> 'webhook.test'` : inArray(o.type, [...types]);

/**
 * `GET /events`: events after the cursor in commit order (`seq`, assigned inside each outbox insert), so a
 * reader storing `nextCursor` never misses or repeats one, whatever commits meanwhile. The page, the
 * tenant's last seq and the retention mark are read in one batch (one snapshot): when nothing more
 * matches, the cursor jumps to the last seq so filtered-out events are not scanned again.
 */
export async function readFeed(tdb: TenantDb, scopes: readonly Scope[], query: FeedQuery) {
  const types = readableTypes(scopes, query.type);
  const after = query.after === undefined ? undefined : decodeCursor(query.after);
  const read = await runBatch(tdb, {
    swept: tdb.db
      .select({ through: eventSweeps.sweptThroughSeq })
      .from(eventSweeps)
      .where(eq(eventSweeps.tenantId, tdb.tenantId)),
    last: tdb.db
      .select({ seq: max(o.seq) })
      .from(o)
      .where(inTenant(tdb, o)),
    rows: tdb.db
      .select({
        id: o.id,
        type: o.type,
        timestamp: o.createdAt,
        data: o.payload,
        seq: o.seq,
        webhooksFailedAt: o.fanOutFailedAt,
      })
      .from(o)
      // Swept events are gone, so without a cursor this starts at the oldest kept one.
      .where(inTenant(tdb, o, gt(o.seq, after ?? 0), typeFilter(types)))
      .orderBy(asc(o.seq))
      .limit(query.limit + 1),
  });
  const sweptThrough = read.swept[0]?.through ?? 0;
  const lastSeq = read.last[0]?.seq ?? 0;
  // No cursor was ever issued past the last event (or the sweep's mark): such a one is forged.
  if (after !== undefined && after > Math.max(lastSeq, sweptThrough)) throw notACursor();
  if (after !== undefined && after < sweptThrough) {
    throw new AppError(
      "GONE",
      "This cursor points before the events kept (30 days): resynchronise your copy, then read the feed without after",
    );
  }
  const hasMore = read.rows.length > query.limit;
  const items = read.rows.slice(0, query.limit);
  const position = hasMore ? (items.at(-1)?.seq ?? 0) : Math.max(lastSeq, after ?? 0, sweptThrough);
  return {
    // Each payload was written for its type by the one outbox writer (test/openapi-events.test.ts checks them).
    items: items.map(
      ({ seq: _seq, webhooksFailedAt, ...event }) =>
        ({ ...event, ...(webhooksFailedAt ? { webhooksFailedAt } : {}) }) as FeedEvent,
    ),
    nextCursor: encodeCursor(position),
    hasMore,
  };
}
