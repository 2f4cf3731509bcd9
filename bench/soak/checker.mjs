// The soak's invariant check: pure functions of the history (every request and response, with what the
// client expects of each acknowledged write), the final database snapshot and what the webhook receivers
// got. bench/soak/checker.test.mjs feeds it small hand-made histories that break each invariant.
import { eventKey } from "./event-keys.mjs";

const levelKey = (row) => [row.tenantId, row.productId, row.locationId, row.lotId ?? ""].join("/");
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/**
 * Checks every invariant; answers the violations (each `{ invariant, detail }`), the events lost (expected
 * at a healthy receiver, never received; `missing` names each `{ tenantId, subscriptionId, eventId }`), the
 * duplicates left after de-duplication by `webhook-id`, and
 * `admissionPeaks` (limited tenant id -> the most admissions the history shows in one 60 s window) and
 * `underAdmissions` (each 429 whose 60 s window held fewer admissions than the plan: `{ tenantId, sentAt,
 * admittedAtMost, limit }`; measured, not a violation: a dead or busy isolate's unused leased slots can cause it).
 *
 * - `history`: `{ tenantId, op, method, path, status, sentAt, receivedAt, headers, ids | body, expect? }`
 *   per attempt (`ids`: the UUIDs its response named, or the `body` they are read from); `status` 0 for no response. `expect` (acknowledged writes only): `events` (keys, see
 *   event-keys.mjs), `readable` (ids that must exist at the end), `deleted` (ids a later read may miss).
 * - `snapshot`: `stockLevels` `{tenantId, productId, locationId, lotId?, onHand, reserved}`, `ledgerSums`
 *   and `reservedSums` (same keys, `total`: ledger deltas; open reservations and holds), `events`
 *   `{id, tenantId, type, payload, createdAt}`, `owners` (every stored id -> its tenant), `subscriptions`
 *   `{id, tenantId, url, events, active, createdAt}`.
 * - `received`: `{ url, webhookId, type }` per request a receiver got; `healthyUrls`: receivers that must
 *   get every matching event; `limits`: tenant id -> requests per 60 s (absent: unlimited); `cutoff`: only
 *   events committed by then must have arrived (a check taken while the load goes on); `settled`: false while
 *   deliveries may still be under way (a missing one is counted in `eventsLost` but is no violation yet).
 * - `feeds`: tenant id -> `{ ids, mustReach? }`: the event ids that tenant's reader of `GET /events` got, in the
 *   order it got them, and the commit position (`seq`) it must have reached (the last event stored before
 *   its final drain began).
 */
export function checkInvariants({
  history,
  snapshot,
  received = [],
  healthyUrls = [],
  limits = {},
  feeds = {},
  cutoff,
  settled = true,
}) {
  const violations = [];
  const violate = (invariant, detail) => violations.push({ invariant, detail });
  checkStock(snapshot, violate);
  checkEvents(history, snapshot, violate);
  checkFeeds(feeds, snapshot, violate);
  const delivery = checkDeliveries(snapshot, received, new Set(healthyUrls), { cutoff, settled }, violate);
  checkReadable(history, snapshot, violate);
  checkServerErrors(history, violate);
  checkIsolation(history, snapshot, violate);
  const admissionPeaks = checkAdmissions(history, limits, violate);
  return {
    violations,
    eventsLost: delivery.missing.length,
    missing: delivery.missing,
    duplicates: delivery.duplicates,
    admissionPeaks,
    underAdmissions: underAdmissions(history, limits),
  };
}

/** Totals per level key; rows of one key from several sources (reservations and holds) add up. */
function sums(rows) {
  const totals = new Map();
  for (const row of rows) totals.set(levelKey(row), (totals.get(levelKey(row)) ?? 0) + row.total);
  return totals;
}

function checkStock({ stockLevels, ledgerSums, reservedSums }, violate) {
  const ledger = sums(ledgerSums);
  const reservations = sums(reservedSums);
  const levels = new Map(stockLevels.map((row) => [levelKey(row), row]));
  for (const [key, level] of levels) {
    if (level.onHand < 0) violate("on-hand-non-negative", `${key}: onHand ${level.onHand}`);
    if (level.reserved < 0 || level.reserved > level.onHand) {
      violate("reserved-within-on-hand", `${key}: reserved ${level.reserved}, onHand ${level.onHand}`);
    }
    const total = ledger.get(key) ?? 0;
    if (total !== level.onHand)
      violate("ledger-sums-to-on-hand", `${key}: ledger ${total}, onHand ${level.onHand}`);
    const held = reservations.get(key) ?? 0;
    if (held !== level.reserved) {
      violate(
        "reserved-equals-reservations",
        `${key}: reservations and holds ${held}, reserved ${level.reserved}`,
      );
    }
  }
  for (const [key, total] of ledger) {
    if (!levels.has(key) && total !== 0)
      violate("ledger-sums-to-on-hand", `${key}: ledger ${total}, no stock level`);
  }
  for (const [key, total] of reservations) {
    if (!levels.has(key) && total !== 0) {
      violate("reserved-equals-reservations", `${key}: reservations and holds ${total}, no stock level`);
    }
  }
}

/** Every acknowledged change has its event, and no change has two. */
function checkEvents(history, { events }, violate) {
  const byKey = new Map();
  for (const event of events) {
    const key = eventKey(event.type, event.payload);
    if (key === null) continue;
    const scoped = `${event.tenantId}:${key}`;
    byKey.set(scoped, (byKey.get(scoped) ?? 0) + 1);
  }
  for (const [key, count] of byKey) {
    if (count > 1) violate("one-event-per-change", `${count} events for one change: ${key}`);
  }
  const expected = new Set();
  for (const entry of acknowledged(history)) {
    for (const key of entry.expect?.events ?? []) expected.add(`${entry.tenantId}:${key}`);
  }
  for (const key of expected) {
    if (!byKey.has(key)) violate("one-event-per-change", `acknowledged change without its event: ${key}`);
  }
}

/**
 * Every tenant's events-feed reader got each committed event exactly once, in commit order (`seq`), with no
 * gap up to where it got, and at the end reached every event committed before its final drain.
 */
function checkFeeds(feeds, { events }, violate) {
  const byTenant = new Map();
  for (const event of events) {
    if (event.type === "webhook.test") continue;
    if (!byTenant.has(event.tenantId)) byTenant.set(event.tenantId, []);
    byTenant.get(event.tenantId).push(event);
  }
  for (const [tenantId, { ids, mustReach }] of Object.entries(feeds)) {
    const stored = byTenant.get(tenantId) ?? [];
    const seqOf = new Map(stored.map((e) => [e.id, e.seq]));
    const seen = new Set();
    let last = 0;
    for (const id of ids) {
      if (seen.has(id)) violate("events-feed", `tenant ${tenantId}'s feed gave event ${id} twice`);
      seen.add(id);
      const seq = seqOf.get(id);
      if (seq === undefined) {
        violate("events-feed", `tenant ${tenantId}'s feed gave ${id}, which is no event of this tenant`);
        continue;
      }
      if (seq <= last) violate("events-feed", `tenant ${tenantId}'s feed gave seq ${seq} after ${last}`);
      last = Math.max(last, seq);
    }
    for (const event of stored) {
      if (event.seq <= last && !seen.has(event.id)) {
        violate(
          "events-feed",
          `tenant ${tenantId}'s feed skipped ${event.type} ${event.id} (seq ${event.seq})`,
        );
      }
    }
    if (mustReach !== undefined && last < mustReach) {
      violate("events-feed", `tenant ${tenantId}'s feed stopped at seq ${last}, before ${mustReach}`);
    }
  }
}

const acknowledged = (history) => history.filter((entry) => entry.status >= 200 && entry.status < 300);

/** Every matching event reached every healthy receiver (de-duplicated by webhook-id) exactly once. */
function checkDeliveries(
  { events, subscriptions },
  received,
  healthyUrls,
  { cutoff = "9999", settled },
  violate,
) {
  const gotByUrl = new Map();
  for (const { url, webhookId } of received) {
    if (!gotByUrl.has(url)) gotByUrl.set(url, new Set());
    gotByUrl.get(url).add(webhookId);
  }
  const eventsById = new Map(events.map((event) => [event.id, event]));
  const missing = [];
  let duplicates = 0;
  for (const subscription of subscriptions) {
    const got = gotByUrl.get(subscription.url) ?? new Set();
    // After de-duplication by webhook-id, one change must still arrive once: two ids for one change is a duplicate.
    const changes = new Map();
    for (const id of got) {
      const event = eventsById.get(id);
      if (!event) {
        violate("webhook-exactly-once", `${subscription.url} got webhook-id ${id}, which is no stored event`);
        continue;
      }
      if (event.tenantId !== subscription.tenantId) {
        violate("tenant-isolation", `${subscription.url} got event ${id} of tenant ${event.tenantId}`);
      }
      const key = eventKey(event.type, event.payload) ?? event.id;
      changes.set(key, (changes.get(key) ?? 0) + 1);
    }
    for (const [key, count] of changes) {
      if (count > 1) {
        duplicates += count - 1;
        violate("webhook-exactly-once", `${subscription.url} got ${count} deliveries of one change: ${key}`);
      }
    }
    if (!healthyUrls.has(subscription.url)) continue;
    for (const event of events) {
      const matches =
        event.tenantId === subscription.tenantId &&
        event.type !== "webhook.test" &&
        event.createdAt > subscription.createdAt &&
        event.createdAt <= cutoff &&
        (subscription.events.includes("*") || subscription.events.includes(event.type));
      if (matches && !got.has(event.id)) {
        missing.push({ tenantId: subscription.tenantId, subscriptionId: subscription.id, eventId: event.id });
        if (settled)
          violate("webhook-exactly-once", `${subscription.url} never got ${event.type} ${event.id}`);
      }
    }
  }
  return { missing, duplicates };
}

function checkReadable(history, { owners }, violate) {
  const deleted = new Set(acknowledged(history).flatMap((entry) => entry.expect?.deleted ?? []));
  for (const entry of acknowledged(history)) {
    for (const id of entry.expect?.readable ?? []) {
      if (owners[id] === undefined && !deleted.has(id)) {
        violate(
          "acknowledged-writes-readable",
          `${entry.method} ${entry.path} answered ${entry.status} with ${id}, which is gone`,
        );
      } else if (owners[id] !== undefined && owners[id] !== entry.tenantId) {
        violate("tenant-isolation", `${id} acknowledged to ${entry.tenantId} is stored for ${owners[id]}`);
      }
    }
  }
}

/** A 5xx is acceptable only when the response says which injected fault caused it. */
function checkServerErrors(history, violate) {
  for (const entry of history) {
    if (entry.status >= 500 && !entry.headers?.["x-fault-injected"]) {
      violate(
        "no-unexplained-5xx",
        `${entry.method} ${entry.path} answered ${entry.status} with no injected fault`,
      );
    }
  }
}

function* idsIn(value) {
  if (typeof value === "string") yield* value.match(UUID) ?? [];
  else if (Array.isArray(value)) for (const item of value) yield* idsIn(item);
  else if (value && typeof value === "object") for (const item of Object.values(value)) yield* idsIn(item);
}

/** No response to one tenant names a record another tenant owns. */
function checkIsolation(history, { owners }, violate) {
  for (const entry of history) {
    if (!entry.tenantId) continue;
    for (const id of new Set(entry.ids ?? idsIn(entry.body))) {
      const owner = owners[id];
      if (owner !== undefined && owner !== entry.tenantId) {
        violate(
          "tenant-isolation",
          `${entry.method} ${entry.path} for ${entry.tenantId} showed ${id} of ${owner}`,
        );
      }
    }
  }
}

/** A limited tenant's admitted answers: a rate-limit header on a non-429 answer (fail-open answers carry none). */
const admitted = (entry) => entry.status !== 429 && entry.headers?.["x-ratelimit-limit"] !== undefined;

/**
 * The refusals (429) of limited tenants while fewer than the plan were admitted in the 60 s before them. The
 * refusal happened somewhere in its round trip, each admission somewhere in its own: an admission counts when it
 * could lie in the window, so a refusal is listed only when even the widest reading held fewer than the plan.
 */
function underAdmissions(history, limits) {
  const found = [];
  const byTenant = Object.groupBy(
    history.filter((entry) => limits[entry.tenantId] !== undefined),
    (entry) => entry.tenantId,
  );
  for (const [tenantId, entries] of Object.entries(byTenant)) {
    const limit = limits[tenantId];
    const admissions = entries.filter(admitted);
    for (const refusal of entries.filter((entry) => entry.status === 429)) {
      const admittedAtMost = admissions.filter(
        (a) => a.receivedAt > refusal.sentAt - 60_000 && a.sentAt < refusal.receivedAt,
      ).length;
      if (admittedAtMost < limit) found.push({ tenantId, sentAt: refusal.sentAt, admittedAtMost, limit });
    }
  }
  return found;
}

/**
 * No tenant was admitted more than its plan allows in any 60 s window. Only requests the limiter
 * admitted count (a rate-limit header on a non-429 answer; fail-open answers carry none), and only when
 * their whole round trip lies inside the window: the admission happened somewhere in between. Answers each
 * limited tenant's peak.
 */
function checkAdmissions(history, limits, violate) {
  const peaks = {};
  const byTenant = new Map();
  for (const entry of history) {
    const limit = limits[entry.tenantId];
    if (limit === undefined || !admitted(entry)) continue;
    if (!byTenant.has(entry.tenantId)) byTenant.set(entry.tenantId, []);
    byTenant.get(entry.tenantId).push(entry);
  }
  for (const [tenantId, entries] of byTenant) {
    const limit = limits[tenantId];
    // Windows start at each admission's send time; the entries inside are those sent at or after it and
    // answered before it ends.
    const sent = [...entries].sort((a, b) => a.sentAt - b.sentAt);
    let worst = { count: 0, start: 0 };
    for (let i = 0; i < sent.length; i++) {
      const start = sent[i].sentAt;
      let count = 0;
      for (let j = i; j < sent.length && sent[j].sentAt < start + 60_000; j++) {
        if (sent[j].receivedAt < start + 60_000) count++;
      }
      if (count > worst.count) worst = { count, start };
    }
    peaks[tenantId] = worst.count;
    if (worst.count > limit) {
      violate(
        "plan-admissions",
        `tenant ${tenantId}: ${worst.count} admissions in the 60 s from ${new Date(worst.start).toISOString()}, plan allows ${limit}`,
      );
    }
  }
  return peaks;
}
