import { is, SQL, sql } from "drizzle-orm";
import { uuidv7 } from "uuidv7";
import { type EventStatement, jsonChunks, utf8Bytes } from "../db/batch";
import type { TenantDb } from "../db/client";
import { compiled, type Values, type Variant } from "../db/compiled";
import { insertSelect } from "../db/insert-select";
import { orders, outboxEvents, products } from "../db/schema/tenant";
import type { EventType } from "./catalog";

// The one writer of outbox rows. An event row goes into the same batch as the change that causes it,
// so an event exists exactly when its change committed; runBatch records the committed ids on the
// tenant handle and the request's hand-off (src/pipeline/hand-off-committed-events.ts) sends them to the
// webhooks once the response is a success.
// Each row takes the tenant's next `seq` inside its insert: a database has one writer and a batch is
// atomic, so seq is commit order, gapless per tenant (the events feed's cursor, docs/decisions/events.md).

/** The tenant's last event sequence number, read inside the inserting statement. */
const lastSeq = (tdb: TenantDb) =>
  sql`(select coalesce(max(o.seq), 0) from outbox_events o where o.tenant_id = ${tdb.tenantId})`;

/**
 * The one merchant every id of a JSON array names in `table` (a pick list's orders, a count's products): none
 * when one of them is the tenant's own or another merchant's, or the array is empty or absent. Each id is one
 * key lookup (a cross join keeps the JSON outside, docs/decisions/query-plans.md).
 */
const soleMerchant = (tdb: TenantDb, table: typeof orders | typeof products, ids: SQL) =>
  sql`(select case when count(x.merchant_id) = json_array_length(${ids}) and min(x.merchant_id) = max(x.merchant_id)
      then min(x.merchant_id) end
    from json_each(${ids}) j cross join ${table} x on x.id = j.value where +x.tenant_id = ${tdb.tenantId})`;

/**
 * The merchant an event is about, from its payload (JSON text): its own `merchantId` (a product, an order), or
 * its `productId`'s or `orderId`'s merchant (stock events, holds, shipments), or the one merchant of all its
 * `orderIds` (a pick list) or `productIds` (a count), as `src/db/merchant-scope.ts` decides who reads those;
 * none for the rest. Stamped on the row, so a merchant-scoped credential's feed and webhooks see its merchant's
 * events only. The payload is evaluated once (materialized): an SQL payload may be a whole pick list.
 * The lookups run only in a tenant with merchants: the guard, evaluated once per statement, is one probe of the
 * tenant's merchants index, and without a merchant no product or order can name one (products.merchant_id
 * references merchants; an order takes its products'), so every other tenant's events pay nothing more.
 */
const merchantOf = (tdb: TenantDb, json: SQL) =>
  sql`case when exists (select 1 from merchants m where m.tenant_id = ${tdb.tenantId}) then
    (with about(doc) as materialized (select ${json})
    select coalesce(doc ->> '$.merchantId',
      (select p.merchant_id from products p where p.tenant_id = ${tdb.tenantId} and p.id = doc ->> '$.productId'),
      (select o.merchant_id from orders o where o.tenant_id = ${tdb.tenantId} and o.id = doc ->> '$.orderId'),
      ${soleMerchant(tdb, orders, sql`(doc ->> '$.orderIds')`)},
      ${soleMerchant(tdb, products, sql`(doc ->> '$.productIds')`)})
    from about) end`;

/** Only the fields `merchantOf` reads, so a large payload is not bound again. */
const merchantFields = (payload: unknown) => {
  const { merchantId, productId, orderId, orderIds, productIds } = (payload ?? {}) as Record<string, unknown>;
  return sql`${JSON.stringify({ merchantId, productId, orderId, orderIds, productIds })}`;
};

/**
 * Whether an active subscription of the tenant wants events of `type` (all events, or the type by name), evaluated
 * in the inserting statement, so it sees every subscription committed before the event. An event nobody wants is
 * stored done (dispatched and processed) and never handed off: a write of a tenant without webhooks costs no
 * fan-out (docs/decisions/webhooks.md). A merchant's subscription counts for every merchant's events here; the
 * fan-out (src/webhook-delivery/fan-out.ts) narrows it to its merchant.
 */
const wanted = (tdb: TenantDb, type: SQL) =>
  sql`exists (select 1 from webhook_subscriptions s where s.tenant_id = ${tdb.tenantId} and s.active = 1
    and exists (select 1 from json_each(s.events) w where w.value in ('*', ${type})))`;

/** When an event is done as it is written: now if nobody wants it, otherwise when its fan-out ends. */
const doneUnlessWanted = (tdb: TenantDb, type: SQL, now: string) =>
  sql`case when ${wanted(tdb, type)} then null else ${now} end`;

/** What every event insert returns: the id of each row it wrote that is to be handed off (runBatch records them). */
const returningIdsToHandOff = sql`returning case when processed_at is null then id end as id`;

/** A guard for an event that exists only if the statement just before it in the batch changed a row. */
export const previousStatementChanged = sql`changes() = 1`;

export interface EventOptions {
  /** Written only when this holds (evaluated inside the batch, so it sees the committed figures). */
  onlyIf?: SQL;
  /** A `from ...` clause whose columns the payload and `onlyIf` read. */
  from?: SQL;
  /** The writer delivers the event itself (webhook.test): stored as dispatched and processed, never handed off. */
  deliveredByWriter?: boolean;
}

// D1 stores at most 1,000,000 bytes in a row; local D1 (tests, wrangler dev) stores more. The writer
// refuses such a payload itself, so a test meets the failure production would (docs/decisions/events.md).
const MAX_PAYLOAD_BYTES = 1_000_000;

/** The payload as stored: its JSON, which must fit in a D1 row (for payloads completed in SQL too). */
export function storedPayload(type: EventType, payload: unknown): string {
  const json = JSON.stringify(payload);
  // A UTF-16 unit is at most 3 UTF-8 bytes: only a payload that could pass the limit is encoded to measure it.
  if (json.length * 3 <= MAX_PAYLOAD_BYTES) return json;
  const bytes = utf8Bytes(json);
  if (bytes > MAX_PAYLOAD_BYTES) throw new Error(`A ${type} payload of ${bytes} bytes does not fit a D1 row`);
  return json;
}

/** The insert of one event row; it looks at no value, so it compiles as well (compiledEventRow). */
const eventInsert = (
  tdb: TenantDb,
  event: { id: string; type: EventType; json: SQL; merchantSource: SQL; now: string },
  options: EventOptions,
) => {
  const { id, type, json, now } = event;
  const done = options.deliveredByWriter ? now : doneUnlessWanted(tdb, sql`${type}`, now);
  return insertSelect(
    outboxEvents,
    {
      id,
      tenantId: tdb.tenantId,
      type,
      payload: json,
      createdAt: now,
      dispatchedAt: done,
      processedAt: done,
      seq: sql`${lastSeq(tdb)} + 1`,
      merchantId: merchantOf(tdb, event.merchantSource),
    },
    sql`${options.from ?? sql``} where ${options.onlyIf ?? sql`1`} ${returningIdsToHandOff}`,
  );
};

/**
 * An outbox row for one event. `payload` is the full resource after the change: a value (stored as JSON)
 * or an SQL expression yielding JSON, for payloads only the batch itself knows (an order's number).
 */
export function eventRow(
  tdb: TenantDb,
  type: EventType,
  payload: unknown,
  now: string,
  options: EventOptions = {},
): EventStatement {
  const id = uuidv7();
  const json = is(payload, SQL) ? payload : sql`${storedPayload(type, payload)}`;
  return {
    kind: "event",
    eventIds: [id],
    handOff: !options.deliveredByWriter,
    statement: eventInsert(
      tdb,
      { id, type, json, merchantSource: is(payload, SQL) ? payload : merchantFields(payload), now },
      options,
    ),
  };
}

/**
 * `eventRow` for a hot write path, its statement compiled once per isolate (src/db/compiled.ts): `build` gives the
 * payload (SQL yielding JSON) and its guard from a tenant handle and values that are placeholders, and `variant`
 * whatever changes their text. Each call binds a new event id, `now` and the values.
 */
export function compiledEventRow<V extends Values, K extends Variant = Record<never, never>>(
  type: EventType,
  build: (tdb: TenantDb, values: V, variant: K) => { payload: SQL; onlyIf?: SQL },
) {
  const statement = compiled((tdb, v: V & { eventId: string; now: string }, k: K) => {
    const { payload, onlyIf } = build(tdb, v, k);
    return eventInsert(
      tdb,
      { id: v.eventId, type, json: payload, merchantSource: payload, now: v.now },
      { ...(onlyIf ? { onlyIf } : {}) },
    );
  });
  return (tdb: TenantDb, values: V, now: string, variant?: K): EventStatement => {
    const eventId = uuidv7();
    return {
      kind: "event",
      eventIds: [eventId],
      handOff: true,
      statement: statement(tdb, { ...values, eventId, now }, variant),
    };
  };
}

// Events travel as one JSON parameter per statement (json_each): D1 binds at most 100 parameters
// and stores at most 1 MB in one value, so a part is also cut by size (jsonChunks).
const EVENTS_PER_STATEMENT = 500;

/** Outbox rows for many events (an import): a few statements whatever their number. */
export function eventRows(
  tdb: TenantDb,
  events: readonly { type: EventType; payload: unknown }[],
  now: string,
): EventStatement[] {
  return jsonChunks(
    events.map((event) => {
      storedPayload(event.type, event.payload);
      return { id: uuidv7(), ...event };
    }),
    EVENTS_PER_STATEMENT,
  ).map((chunk) => {
    const type = sql`json_extract(j.value, '$.type')`;
    const done = doneUnlessWanted(tdb, type, now);
    return {
      kind: "event",
      eventIds: chunk.map((event) => event.id),
      handOff: true,
      statement: insertSelect(
        outboxEvents,
        {
          id: sql`json_extract(j.value, '$.id')`,
          tenantId: tdb.tenantId,
          type,
          payload: sql`json(json_extract(j.value, '$.payload'))`,
          createdAt: now,
          dispatchedAt: done,
          processedAt: done,
          seq: sql`${lastSeq(tdb)} + j.key + 1`,
          merchantId: merchantOf(tdb, sql`json_extract(j.value, '$.payload')`),
        },
        sql`from json_each(${JSON.stringify(chunk)}) j ${returningIdsToHandOff}`,
      ),
    };
  });
}

/** What a bulk event statement selects per row of its JSON (alias `j`; a field is `j.value ->> 'name'`). */
export interface SelectedEvents {
  payload: SQL;
  /** Joins after `json_each(...) j`, given the rows' JSON parameter (to aggregate over every row). */
  from?: (rowsJson: SQL) => SQL;
  /** Only rows for which this holds become events (evaluated in the batch, after the change). */
  onlyIf?: SQL;
}

/** The insert of one part's events of `selectedEventRows`; it looks at no value, so it compiles as well. */
const selectedEventsInsert = (
  tdb: TenantDb,
  type: EventType,
  json: SQL,
  now: string,
  select: SelectedEvents,
) => {
  const done = doneUnlessWanted(tdb, sql`${type}`, now);
  return insertSelect(
    outboxEvents,
    {
      id: sql`e.id`,
      tenantId: tdb.tenantId,
      type,
      payload: sql`e.payload`,
      createdAt: now,
      dispatchedAt: done,
      processedAt: done,
      seq: sql`${lastSeq(tdb)} + row_number() over (order by e.ord)`,
      merchantId: merchantOf(tdb, sql`e.payload`),
    },
    sql`from (select j.value ->> 'id' as id, j.key as ord, ${select.payload} as payload
      from json_each(${json}) j ${select.from?.(json) ?? sql``}
      where ${select.onlyIf ?? sql`1`}) e
    where true ${returningIdsToHandOff}`,
  );
};

/** The rows of `selectedEventRows` with their new event ids, in parts of at most EVENTS_PER_STATEMENT. */
const eventParts = (rows: readonly object[]) =>
  jsonChunks(
    rows.map((row) => ({ ...row, id: uuidv7() })),
    EVENTS_PER_STATEMENT,
  );

/**
 * Outbox rows of one type for many rows whose payloads only the batch knows (a bulk stock write's levels
 * after it): a few statements whatever their number. Rows that `onlyIf` drops are not written and take no
 * seq (the written ones are numbered without gaps).
 */
export function selectedEventRows(
  tdb: TenantDb,
  type: EventType,
  rows: readonly object[],
  now: string,
  select: SelectedEvents,
): EventStatement[] {
  return eventParts(rows).map((part) => ({
    kind: "event",
    eventIds: part.map((row) => row.id),
    handOff: true,
    statement: selectedEventsInsert(tdb, type, sql`${JSON.stringify(part)}`, now, select),
  }));
}

/**
 * `selectedEventRows` for a hot write path, its statement compiled once per isolate (src/db/compiled.ts): `build`
 * gives the selection from a tenant handle and values that are placeholders, and `variant` whatever changes its
 * text. Each call binds the rows (with new event ids), `now` and the values.
 */
export function compiledSelectedEventRows<V extends Values, K extends Variant = Record<never, never>>(
  type: EventType,
  build: (tdb: TenantDb, values: V, variant: K) => SelectedEvents,
) {
  const statement = compiled((tdb, v: V & { rows: string; now: string }, k: K) =>
    selectedEventsInsert(tdb, type, sql`${v.rows}`, v.now, build(tdb, v, k)),
  );
  return (tdb: TenantDb, rows: readonly object[], now: string, values: V, variant?: K): EventStatement[] =>
    eventParts(rows).map((part) => ({
      kind: "event",
      eventIds: part.map((row) => row.id),
      handOff: true,
      statement: statement(tdb, { ...values, rows: JSON.stringify(part), now }, variant),
    }));
}
