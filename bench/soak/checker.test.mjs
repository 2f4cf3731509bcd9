// `npm run test:soak`: the invariant checker against small hand-made histories. A clean history passes;
// each broken one must be caught under the right invariant.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { checkInvariants } from "./checker.mjs";

const A = "0190a000-0000-7000-8000-00000000000a";
const B = "0190b000-0000-7000-8000-00000000000b";
const P = "0190c000-0000-7000-8000-0000000000c1"; // A's product
const L = "0190c000-0000-7000-8000-0000000000c2"; // A's location
const Q = "0190d000-0000-7000-8000-0000000000d1"; // B's product
const M = "0190e000-0000-7000-8000-0000000000e1"; // a movement of A
const E1 = "0190f000-0000-7000-8000-0000000000f1";
const E2 = "0190f000-0000-7000-8000-0000000000f2";
const S = "0190a100-0000-7000-8000-0000000000a1";
const HOOK = "http://127.0.0.1:9020/a/healthy";

/** A consistent world: A adjusted 5 into (P, L), reserved 2 for an order, one event, delivered once. */
function world() {
  return {
    history: [
      {
        tenantId: A,
        op: "adjust",
        method: "POST",
        path: "/inventory/adjustments",
        status: 201,
        sentAt: 1_000,
        receivedAt: 1_050,
        headers: { "x-ratelimit-limit": "60" },
        body: { data: { movement: { id: M, productId: P, locationId: L } } },
        expect: { events: [`inventory.adjusted:${M}`], readable: [P] },
      },
    ],
    snapshot: {
      stockLevels: [{ tenantId: A, productId: P, locationId: L, onHand: 5, reserved: 2 }],
      ledgerSums: [{ tenantId: A, productId: P, locationId: L, total: 5 }],
      reservedSums: [{ tenantId: A, productId: P, locationId: L, total: 2 }],
      events: [
        {
          id: E1,
          tenantId: A,
          type: "inventory.adjusted",
          payload: { movementId: M, productId: P },
          createdAt: "2026-11-23T17:00:01.000Z",
          seq: 1,
        },
      ],
      owners: { [P]: A, [L]: A, [M]: A, [Q]: B, [E1]: A, [S]: A },
      subscriptions: [
        { id: S, tenantId: A, url: HOOK, events: ["*"], active: true, createdAt: "2026-11-23T17:00:00.000Z" },
      ],
    },
    received: [{ url: HOOK, webhookId: E1, type: "inventory.adjusted" }],
    healthyUrls: [HOOK],
    limits: { [A]: 60 },
    feeds: { [A]: { ids: [E1], mustReach: 1 } },
  };
}

/** The world with a second change of A (seq 2), stored and delivered. */
function twoEvents() {
  const w = world();
  const M2 = "0190e000-0000-7000-8000-0000000000e2";
  w.snapshot.owners[M2] = A;
  w.snapshot.events.push({
    id: E2,
    tenantId: A,
    type: "inventory.adjusted",
    payload: { movementId: M2, productId: P },
    createdAt: "2026-11-23T17:00:02.000Z",
    seq: 2,
  });
  w.received.push({ url: HOOK, webhookId: E2, type: "inventory.adjusted" });
  w.feeds[A] = { ids: [E1, E2], mustReach: 2 };
  return w;
}

const invariantsOf = (input) => [...new Set(checkInvariants(input).violations.map((v) => v.invariant))];

describe("the soak's invariant checker", () => {
  it("passes a consistent history", () => {
    const result = checkInvariants(world());
    assert.deepEqual(result.violations, []);
    assert.equal(result.eventsLost, 0);
    assert.equal(result.duplicates, 0);
  });

  it("catches negative stock", () => {
    const w = world();
    w.snapshot.stockLevels[0].onHand = -1;
    w.snapshot.stockLevels[0].reserved = 0;
    w.snapshot.ledgerSums[0].total = -1;
    w.snapshot.reservedSums = [];
    assert.deepEqual(invariantsOf(w), ["on-hand-non-negative", "reserved-within-on-hand"]);
  });

  it("catches more reserved than on hand", () => {
    const w = world();
    w.snapshot.stockLevels[0].reserved = 6;
    w.snapshot.reservedSums[0].total = 6;
    assert.deepEqual(invariantsOf(w), ["reserved-within-on-hand"]);
  });

  it("catches a ledger that does not sum to on hand, with or without a stock level", () => {
    const w = world();
    w.snapshot.ledgerSums[0].total = 4;
    assert.deepEqual(invariantsOf(w), ["ledger-sums-to-on-hand"]);
    const orphan = world();
    orphan.snapshot.ledgerSums.push({ tenantId: A, productId: P, locationId: Q, total: 3 });
    assert.deepEqual(invariantsOf(orphan), ["ledger-sums-to-on-hand"]);
  });

  it("keeps lots apart in the ledger sums", () => {
    const w = world();
    w.snapshot.stockLevels = [
      { tenantId: A, productId: P, locationId: L, lotId: "LOT-1", onHand: 3, reserved: 2 },
      { tenantId: A, productId: P, locationId: L, lotId: "LOT-2", onHand: 2, reserved: 0 },
    ];
    w.snapshot.ledgerSums = [
      { tenantId: A, productId: P, locationId: L, lotId: "LOT-1", total: 2 },
      { tenantId: A, productId: P, locationId: L, lotId: "LOT-2", total: 3 },
    ];
    w.snapshot.reservedSums = [{ tenantId: A, productId: P, locationId: L, lotId: "LOT-1", total: 2 }];
    assert.deepEqual(invariantsOf(w), ["ledger-sums-to-on-hand"]);
  });

  it("catches reserved stock that no reservation or hold explains", () => {
    const w = world();
    w.snapshot.reservedSums[0].total = 1;
    assert.deepEqual(invariantsOf(w), ["reserved-equals-reservations"]);
  });

  it("counts an order's reservation and an active hold at one level together", () => {
    const w = world();
    w.snapshot.reservedSums = [
      { tenantId: A, productId: P, locationId: L, total: 1 }, // an open order line
      { tenantId: A, productId: P, locationId: L, total: 1 }, // an active hold's allocation
    ];
    assert.deepEqual(invariantsOf(w), []);
    w.snapshot.reservedSums.pop(); // the hold's stock still reserved, the hold gone
    assert.deepEqual(invariantsOf(w), ["reserved-equals-reservations"]);
  });

  it("catches an acknowledged change without its event, and a change with two", () => {
    const missing = world();
    missing.snapshot.events = [];
    missing.received = [];
    missing.feeds = {};
    assert.deepEqual(invariantsOf(missing), ["one-event-per-change"]);
    const twice = world();
    twice.snapshot.events.push({ ...twice.snapshot.events[0], id: E2, seq: 2 });
    twice.received.push({ url: HOOK, webhookId: E2, type: "inventory.adjusted" });
    twice.feeds[A].ids = [E1, E2];
    assert.deepEqual(invariantsOf(twice), ["one-event-per-change", "webhook-exactly-once"]);
  });

  it("counts an event a healthy receiver never got as lost", () => {
    const w = world();
    w.received = [];
    const result = checkInvariants(w);
    assert.deepEqual(invariantsOf(w), ["webhook-exactly-once"]);
    assert.equal(result.eventsLost, 1);
    // Named, so the soak can look up its delivery (and bring a retry scheduled past the run forward).
    const [subscription] = w.snapshot.subscriptions;
    assert.deepEqual(result.missing, [{ tenantId: A, subscriptionId: subscription.id, eventId: E1 }]);
  });

  it("counts a missing delivery as in flight, not as a violation, before deliveries have settled", () => {
    const w = world();
    w.received = [];
    const result = checkInvariants({ ...w, settled: false });
    assert.deepEqual(result.violations, []);
    assert.equal(result.eventsLost, 1);
  });

  it("forgives a receiver that is not healthy its missing events, not its duplicates", () => {
    const w = world();
    w.received = [];
    w.healthyUrls = [];
    assert.deepEqual(invariantsOf(w), []);
  });

  it("de-duplicates by webhook-id, and counts one change under two ids as a duplicate", () => {
    const redelivered = world();
    redelivered.received.push({ url: HOOK, webhookId: E1, type: "inventory.adjusted" });
    assert.deepEqual(invariantsOf(redelivered), []);
    const twice = world();
    twice.snapshot.events.push({ ...twice.snapshot.events[0], id: E2 });
    twice.received.push({ url: HOOK, webhookId: E2, type: "inventory.adjusted" });
    assert.equal(checkInvariants(twice).duplicates, 1);
  });

  it("catches a delivery under a webhook-id that is no stored event", () => {
    const w = world();
    w.received.push({ url: HOOK, webhookId: E2, type: "inventory.adjusted" });
    assert.deepEqual(invariantsOf(w), ["webhook-exactly-once"]);
  });

  it("catches an acknowledged write stored for another tenant", () => {
    const w = world();
    w.snapshot.owners[P] = B;
    w.history[0].body = {}; // the response itself named nothing of B's
    assert.deepEqual(invariantsOf(w), ["tenant-isolation"]);
  });

  it("catches an acknowledged write that is gone, unless it was deleted later", () => {
    const w = world();
    delete w.snapshot.owners[P];
    assert.deepEqual(invariantsOf(w), ["acknowledged-writes-readable"]);
    w.history.push({ ...w.history[0], op: "delete-product", status: 204, expect: { deleted: [P] } });
    assert.deepEqual(invariantsOf(w), []);
  });

  it("catches a 5xx that no injected fault explains", () => {
    const w = world();
    w.history.push({ ...w.history[0], status: 500, headers: {}, expect: undefined });
    assert.deepEqual(invariantsOf(w), ["no-unexplained-5xx"]);
    w.history[1].headers = { "x-fault-injected": "d1-batch=1" };
    assert.deepEqual(invariantsOf(w), []);
  });

  it("catches a response that shows another tenant's record", () => {
    const w = world();
    w.history.push({ ...w.history[0], op: "list", status: 200, body: { data: { items: [{ id: Q }] } } });
    assert.deepEqual(invariantsOf(w), ["tenant-isolation"]);
  });

  it("catches an event delivered to another tenant's receiver", () => {
    const w = world();
    w.snapshot.events[0].tenantId = B;
    w.snapshot.events[0].createdAt = "2026-11-23T16:59:00.000Z"; // not expected at A's receiver either
    w.history[0].expect.events = [];
    w.feeds = {};
    assert.deepEqual(invariantsOf(w), ["tenant-isolation"]);
  });

  it("passes a feed reader that got every event once, in commit order", () => {
    assert.deepEqual(invariantsOf(twoEvents()), []);
  });

  it("catches a feed reader that got an event twice", () => {
    const w = twoEvents();
    w.feeds[A].ids = [E1, E1, E2];
    assert.deepEqual(invariantsOf(w), ["events-feed"]);
  });

  it("catches a feed reader that got events out of commit order", () => {
    const w = twoEvents();
    w.feeds[A].ids = [E2, E1];
    assert.deepEqual(invariantsOf(w), ["events-feed"]);
  });

  it("catches a feed that skipped an event before one it gave", () => {
    const w = twoEvents();
    w.feeds[A] = { ids: [E2] };
    assert.deepEqual(invariantsOf(w), ["events-feed"]);
  });

  it("catches a feed reader that never reached the events committed before its final drain", () => {
    const w = twoEvents();
    w.feeds[A] = { ids: [E1], mustReach: 2 };
    assert.deepEqual(invariantsOf(w), ["events-feed"]);
    w.feeds[A] = { ids: [E1] }; // a reader still under way has no such promise
    assert.deepEqual(invariantsOf(w), []);
  });

  it("catches a feed that gave another tenant's event", () => {
    const w = twoEvents();
    w.snapshot.events[1].tenantId = B;
    w.snapshot.events[1].createdAt = "2026-11-23T16:59:00.000Z"; // not expected at A's receiver
    w.received.pop();
    assert.deepEqual(invariantsOf(w), ["events-feed"]);
  });

  it("catches more admissions in 60 s than the plan allows, and only then", () => {
    const admitted = (i, spacingMs = 900) => ({
      ...world().history[0],
      expect: undefined,
      sentAt: 10_000 + i * spacingMs,
      receivedAt: 10_000 + i * spacingMs + 50,
    });
    const w = world();
    w.history = Array.from({ length: 61 }, (_, i) => admitted(i)); // 61 within 54.9 s
    assert.deepEqual(invariantsOf(w), ["plan-admissions"]);
    w.history = Array.from({ length: 61 }, (_, i) => admitted(i, 1000)); // the 61st falls outside
    assert.deepEqual(invariantsOf(w), []);
    // Refusals and fail-open answers (no rate-limit header) are not admissions.
    w.history = Array.from({ length: 61 }, (_, i) => admitted(i));
    w.history[3].status = 429;
    w.history[4].headers = {};
    assert.deepEqual(invariantsOf(w), []);
  });

  it("catches a burst admitted beyond the plan around its refusals, and reports each tenant's peak", () => {
    // A greedy Starter client: 40 reads at once, then refusals, then 30 more admitted 20 s later: 70 in 60 s.
    const attempt = (sentAt, status) => ({
      ...world().history[0],
      op: "burst",
      method: "GET",
      status,
      expect: undefined,
      sentAt,
      receivedAt: sentAt + 300,
    });
    const w = world();
    const first = Array.from({ length: 40 }, () => attempt(10_000, 200));
    const refused = Array.from({ length: 30 }, () => attempt(10_000, 429));
    const retried = Array.from({ length: 30 }, () => attempt(30_000, 200));
    w.history = [...first, ...refused, ...retried];
    const result = checkInvariants(w);
    assert.deepEqual(invariantsOf(w), ["plan-admissions"]);
    assert.equal(result.admissionPeaks[A], 70);
    // The same burst retried once the window has moved on (Retry-After honoured) stays within the plan.
    w.history = [...first, ...refused, ...Array.from({ length: 30 }, () => attempt(70_500, 200))];
    assert.deepEqual(invariantsOf(w), []);
    assert.equal(checkInvariants(w).admissionPeaks[A], 40);
  });

  it("measures refusals while fewer than the plan were admitted in their window, and only those", () => {
    const attempt = (sentAt, status) => ({
      ...world().history[0],
      op: "burst",
      method: "GET",
      status,
      expect: undefined,
      sentAt,
      receivedAt: sentAt + 300,
    });
    const w = world();
    // 40 admitted, then refused: 20 slots were never used (a lease held elsewhere).
    w.history = [...Array.from({ length: 40 }, () => attempt(10_000, 200)), attempt(11_000, 429)];
    assert.deepEqual(checkInvariants(w).underAdmissions, [
      { tenantId: A, sentAt: 11_000, admittedAtMost: 40, limit: w.limits[A] },
    ]);
    // The plan spent in the window: a fair refusal. Admissions that left the window before it do not count.
    const full = Array.from({ length: w.limits[A] }, () => attempt(10_000, 200));
    w.history = [...full, attempt(11_000, 429)];
    assert.deepEqual(checkInvariants(w).underAdmissions, []);
    w.history = [...full, attempt(70_400, 429)];
    assert.equal(checkInvariants(w).underAdmissions.length, 1);
  });
});
