import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { LEASING_FROM, LeaseHolder, USABLE_MS } from "../src/rate-limit/lease-holder";
import {
  acquire,
  CLOCK_MARGIN_MS,
  emptyLedger,
  handBack,
  LEASE_MS,
  type Ledger,
  maxSpare,
} from "../src/rate-limit/ledger";

const W = 60_000;
const starter = { limit: 60, windowMs: W };
const T = 1_800_000_000_000;

/** One grant through the pure ledger, as the object would make it at `now`. */
function grant(ledger: Ledger, now: number, need: number, spare = 0, holding = 0, id = `l${now}`) {
  return acquire(ledger, now, starter, { need, spare, holding }, [], id);
}

describe("the object's ledger (pure, explicit clock)", () => {
  it("grants every needed slot the budget has, and spare ones only up to a quarter of the plan and half of what is left", () => {
    const first = grant(emptyLedger, T, 10, 100);
    expect(maxSpare(60)).toBe(15);
    expect(first.granted).toBe(10 + 15);
    expect(first.next).toMatchObject({ allowed: true, remaining: 35 });
    // 35 left: 30 needed now, and at most half of the 5 that would remain as spare.
    const second = grant(first.ledger, T + 1, 30, 100);
    expect(second.granted).toBe(30 + 2);
    // 3 left: all of them for the needy, nothing spare.
    const third = grant(second.ledger, T + 2, 5, 100);
    expect(third.granted).toBe(3);
    expect(third.next).toMatchObject({ allowed: false, remaining: 0 });
  });

  it("counts the unused slots an isolate already holds against what it may hold", () => {
    // Holding 10 of a quarter (15): 5 more at most.
    expect(grant(emptyLedger, T, 0, 100, 10).granted).toBe(5);
    // 20 free besides 10 held: it may hold half of the 30, so 5 more.
    const busy = grant(emptyLedger, T, 40).ledger;
    expect(grant(busy, T + 1, 0, 100, 10).granted).toBe(5);
    expect(grant(busy, T + 1, 0, 100, 15).granted).toBe(0);
  });

  it("counts an unreported lease (an isolate that died holding it) in every window until its expiry plus one window", () => {
    const { ledger } = grant(emptyLedger, T, 0, 15);
    const expiry = T + LEASE_MS;
    const filled = grant(ledger, T + 1, 45).ledger;
    // The 15 leased slots could be used up to the lease's expiry: they count until expiry + 60 s.
    expect(grant(filled, expiry + W - 1, 1).granted).toBe(0);
    const freed = grant(filled, expiry + W, 1);
    expect(freed.granted).toBe(1);
    // The 45 slots granted at T + 1 expire at T + 1 + LEASE_MS, so they still count for 1 ms more.
    expect(freed.next.remaining).toBe(60 - 45 - 1);
    expect(grant(filled, expiry + W + 1, 0).next.remaining).toBe(60);
  });

  it("frees a lease's unused slots as soon as its report comes, and places each use a margin after the grant", () => {
    const leased = grant(emptyLedger, T, 0, 15).ledger;
    const reported = handBack(leased, T + 5_000, W, [{ id: `l${T}`, uses: [100, 2_000, 3_000] }]);
    expect(reported.changes.settledLeases).toEqual([`l${T}`]);
    expect(reported.ledger.hits).toEqual([
      T + CLOCK_MARGIN_MS + 100,
      T + CLOCK_MARGIN_MS + 2_000,
      T + CLOCK_MARGIN_MS + 3_000,
    ]);
    expect(grant(reported.ledger, T + 5_001, 0).next.remaining).toBe(57);
    // Window edges: the first use counts until exactly one window after its placed time.
    const firstUse = T + CLOCK_MARGIN_MS + 100;
    expect(grant(reported.ledger, firstUse + W - 1, 0).next.remaining).toBe(57);
    expect(grant(reported.ledger, firstUse + W, 0).next.remaining).toBe(58);
  });

  it("never places a reported use after the lease's expiry, nor counts more uses than slots", () => {
    const leased = grant(emptyLedger, T, 0, 2).ledger;
    const reported = handBack(leased, T + 1, W, [{ id: `l${T}`, uses: [LEASE_MS * 5, 0, 0] }]);
    expect(reported.ledger.hits).toEqual([T + CLOCK_MARGIN_MS, T + LEASE_MS]);
  });

  it("ignores a report for a lease that already left every window, and a second report for the same lease", () => {
    const leased = grant(emptyLedger, T, 0, 5).ledger;
    const late = handBack(leased, T + LEASE_MS + W, W, [{ id: `l${T}`, uses: [1] }]);
    expect(late.ledger).toEqual(emptyLedger);
    const once = handBack(leased, T + 1, W, [{ id: `l${T}`, uses: [1] }]).ledger;
    expect(handBack(once, T + 2, W, [{ id: `l${T}`, uses: [1, 2, 3] }]).ledger).toEqual(once);
  });

  it("refuses with the time the blocking slot leaves, counting leased slots at their expiry", () => {
    const full = grant(emptyLedger, T, 60).ledger;
    const refused = grant(full, T + 30_000, 1);
    expect(refused.granted).toBe(0);
    expect(refused.next).toMatchObject({ allowed: false, remaining: 0, resetAt: T + LEASE_MS + W });
    expect(refused.next.retryAfter).toBe((LEASE_MS + W - 30_000) / 1000);
  });

  it("counts leases granted under a higher plan against a lowered one", () => {
    const business = { limit: 300, windowMs: W };
    const leased = acquire(emptyLedger, T, business, { need: 100, spare: 0, holding: 0 }, [], "b").ledger;
    const lowered = acquire(leased, T + 1, starter, { need: 1, spare: 0, holding: 0 }, [], "s");
    expect(lowered.granted).toBe(0);
    expect(lowered.next.allowed).toBe(false);
  });
});

describe("an isolate's lease holder (pure, explicit clock)", () => {
  const lease = (holder: LeaseHolder, askedAt: number, slots: number, limit = 60, free = limit - slots) =>
    holder.receive({ id: `h${askedAt}`, slots, resetAt: askedAt + W, free }, askedAt, limit, askedAt);

  it("asks for no spare slot while the isolate sees fewer than one request every two seconds, so every answer is the object's", () => {
    const holder = new LeaseHolder(W);
    for (let minute = 0; minute < 5; minute++) {
      const now = T + minute * 60_000;
      expect(holder.take(now, 60)).toBeUndefined();
      expect(holder.ask(now, 1).ask).toEqual({ need: 1, spare: 0, holding: 0 });
      lease(holder, now, 1);
      expect(holder.take(now + 20, 60)).toBeDefined();
      expect(holder.wantsMore(now + 20, 60)).toBe(false);
    }
  });

  it("asks for 20 s of its rate over the last 10 s (over the time they took, at least 2 s), and says what it holds", () => {
    const holder = new LeaseHolder(W);
    lease(holder, T, 40);
    for (let i = 0; i < 20; i++) holder.take(T + i * 100, 60);
    // 10 requests a second: 200 for 20 s (the object caps it), 20 of the lease unused.
    expect(holder.ask(T + 2_000, 1).ask).toEqual({ need: 1, spare: 200, holding: 20 });
    // 19 left in the last 10 s, over 9.95 s.
    expect(holder.ask(T + 10_050, 1).ask).toEqual({ need: 1, spare: 39, holding: 20 });
    expect(holder.ask(T + 12_000, 0).ask.spare).toBe(0);
    // Five at once: judged over 2 s, not as a flood.
    const burst = new LeaseHolder(W);
    lease(burst, T, 10);
    for (let i = 0; i < LEASING_FROM; i++) burst.take(T, 60);
    expect(burst.ask(T, 1).ask.spare).toBe(50);
  });

  it("admits from the earliest lease, counts its unused slots as remaining, and asks ahead with a second of traffic left", () => {
    const holder = new LeaseHolder(W);
    lease(holder, T, 3, 300);
    lease(holder, T + 10, 97, 300, 200);
    expect(holder.take(T + 20, 300)).toMatchObject({ leaseId: `h${T}`, remaining: 299 });
    // 10 requests a second: asks ahead once about 10 slots (a second) are left, not earlier.
    const at = (admission: number) => T + 20 + admission * 100;
    for (let i = 1; i < 87; i++) holder.take(at(i), 300);
    expect(holder.unused()).toBe(13);
    expect(holder.wantsMore(at(86), 300)).toBe(false);
    holder.take(at(87), 300);
    holder.take(at(88), 300);
    expect(holder.unused()).toBe(11);
    expect(holder.wantsMore(at(88), 300)).toBe(true);
  });

  it("reports each use relative to when it asked, and hands a lease back only when it left slots unused", () => {
    const holder = new LeaseHolder(W);
    lease(holder, T, 2);
    holder.take(T + 150, 60);
    holder.take(T + 400, 60);
    // Used up: its report only tightens the uses, so it waits for the next ask.
    expect(holder.handBackDue(T + USABLE_MS + 1)).toEqual([]);
    lease(holder, T + 1_000, 5);
    holder.take(T + 1_200, 60);
    expect(holder.handBackDue(T + 1_000 + USABLE_MS)).toEqual([]);
    expect(holder.handBackDue(T + 1_000 + USABLE_MS + 1)).toEqual([
      { id: `h${T}`, uses: [150, 400] },
      { id: `h${T + 1_000}`, uses: [200] },
    ]);
    expect(holder.ask(T + 30_000, 1).reports).toEqual([]);
  });

  it("stops using a lease at its usable end and drops one granted under another plan", () => {
    const holder = new LeaseHolder(W);
    lease(holder, T, 5);
    expect(holder.take(T + USABLE_MS, 60)).toBeDefined();
    expect(holder.take(T + USABLE_MS + 1, 60)).toBeUndefined();
    lease(holder, T + 30_000, 5, 300);
    expect(holder.take(T + 30_001, 60)).toBeUndefined();
    expect(holder.unused()).toBe(0);
    expect(holder.ask(T + 30_002, 1).reports).toEqual([
      { id: `h${T}`, uses: [USABLE_MS] },
      { id: `h${T + 30_000}`, uses: [] },
    ]);
  });
});

describe("a lease between the isolate and the object (pure, explicit clocks)", () => {
  it("keeps counting a use read up to the clock margin late at the very end of a lease, for a whole window", () => {
    const holder = new LeaseHolder(W);
    let ledger = grant(emptyLedger, T, 0, 2, 0, "a").ledger;
    holder.receive({ id: "a", slots: 2, resetAt: T + W, free: 58 }, T, 60, T);
    const lastReading = T + USABLE_MS;
    const trueTime = lastReading + CLOCK_MARGIN_MS - 1;
    expect(holder.take(lastReading, 60)).toBeDefined();
    expect(holder.take(lastReading + 1, 60)).toBeUndefined();
    ledger = handBack(ledger, trueTime + 5, W, holder.handBackDue(trueTime)).ledger;
    expect(grant(ledger, trueTime + W - 1, 0).next.remaining).toBe(59);
    expect(grant(ledger, T + LEASE_MS + W, 0).next.remaining).toBe(60);
  });
});

// Several isolates (holders) sharing one object (ledger), simulated event by event with explicit clocks:
// network latency both ways, isolates whose clock reads up to 900 ms late, isolates that die holding leases
// (their state and any grant on its way are lost), asks ahead and hand-backs at a lease's usable end.
type Event =
  | { at: number; kind: "arrive" | "die"; holder: number }
  | {
      at: number;
      kind: "object";
      holder: number;
      generation: number;
      askedAt: number;
      need: number;
      spare: number;
      holding: number;
      reports: ReturnType<LeaseHolder["ask"]>["reports"];
      forRequest: boolean;
    }
  | {
      at: number;
      kind: "receive";
      holder: number;
      generation: number;
      askedAt: number;
      id: string;
      slots: number;
      need: number;
      next: { allowed: boolean; remaining: number; resetAt: number };
      forRequest: boolean;
    }
  | { at: number; kind: "hand-back"; holder: number; generation: number };

interface Scenario {
  limit: number;
  holders: number;
  latency: number;
  /** How late an isolate's clock reads, one value per reading in turn (a Workers clock advances only on I/O). */
  clockLags: number[];
  arrivals: { holder: number; at: number }[];
  deaths: { holder: number; at: number }[];
}

function simulate(scenario: Scenario) {
  const rule = { limit: scenario.limit, windowMs: W };
  let ledger: Ledger = emptyLedger;
  let nextId = 0;
  const holders = Array.from({ length: scenario.holders }, () => ({
    holder: new LeaseHolder(W),
    generation: 0,
  }));
  /** Every admission: its true time, the isolate that admitted it and the Remaining it was told. */
  const admitted: { at: number; holder: number; remaining: number }[] = [];
  const queue: Event[] = [
    ...scenario.arrivals.map((a) => ({ ...a, kind: "arrive" as const })),
    ...scenario.deaths.map((d) => ({ ...d, kind: "die" as const })),
  ];
  const push = (event: Event) => queue.push(event);
  let readings = 0;
  const clock = (at: number) => at - (scenario.clockLags[readings++ % scenario.clockLags.length] as number);
  const call = (h: number, at: number, need: number, forRequest: boolean) => {
    const { ask, reports } = holders[h]!.holder.ask(clock(at), need);
    const event = {
      at: at + scenario.latency,
      kind: "object" as const,
      holder: h,
      generation: holders[h]!.generation,
      askedAt: clock(at),
      ...ask,
      reports,
      forRequest,
    };
    // Without latency the answer comes before anything else happens, as a call that cannot interleave.
    if (scenario.latency === 0) handle(event);
    else push(event);
  };
  const admit = (h: number, at: number) => {
    const slot = holders[h]!.holder.take(clock(at), rule.limit);
    if (!slot) return false;
    admitted.push({ at, holder: h, remaining: slot.remaining });
    if (holders[h]!.holder.wantsMore(clock(at), rule.limit)) call(h, at, 0, false);
    return true;
  };
  function handle(event: Event): void {
    const state = holders[event.holder]!;
    switch (event.kind) {
      case "arrive":
        if (!admit(event.holder, event.at)) call(event.holder, event.at, 1, true);
        break;
      case "die":
        holders[event.holder] = { holder: new LeaseHolder(W), generation: state.generation + 1 };
        break;
      case "object": {
        // The object answers whatever reached it, even from an isolate that died since.
        const id = `lease-${nextId++}`;
        const result = acquire(
          ledger,
          event.at,
          rule,
          { need: event.need, spare: event.spare, holding: event.holding },
          event.reports,
          id,
        );
        ledger = result.ledger;
        const answer = {
          ...event,
          at: event.at + scenario.latency,
          kind: "receive" as const,
          id,
          slots: result.granted,
          next: result.next,
        };
        if (scenario.latency === 0) handle(answer);
        else push(answer);
        break;
      }
      case "receive":
        if (event.generation !== state.generation) break; // died: the grant is lost with the isolate
        state.holder.receive(
          { id: event.id, slots: event.slots, resetAt: event.next.resetAt, free: event.next.remaining },
          event.askedAt,
          rule.limit,
          clock(event.at),
        );
        if (event.forRequest) admit(event.holder, event.at);
        if (event.slots > event.need)
          push({
            at: event.at + USABLE_MS + 1,
            kind: "hand-back",
            holder: event.holder,
            generation: state.generation,
          });
        break;
      case "hand-back":
        if (event.generation !== state.generation) break;
        ledger = handBack(
          ledger,
          event.at + scenario.latency,
          W,
          state.holder.handBackDue(clock(event.at)),
        ).ledger;
        break;
    }
  }
  while (queue.length > 0) {
    queue.sort((a, b) => a.at - b.at);
    handle(queue.shift() as Event);
  }
  return admitted;
}

/** Bursts of requests at isolates (so they lease spare slots), and deaths, over a few minutes. */
const scenarios = fc
  .record({
    limit: fc.constantFrom(3, 10, 60),
    holders: fc.integer({ min: 1, max: 4 }),
    latency: fc.integer({ min: 0, max: 300 }),
    clockLags: fc.array(fc.integer({ min: 0, max: CLOCK_MARGIN_MS - 100 }), { minLength: 1, maxLength: 20 }),
    bursts: fc.array(
      fc.record({
        holder: fc.nat(3),
        start: fc.integer({ min: 0, max: 200_000 }),
        count: fc.integer({ min: 1, max: 80 }),
        spacing: fc.integer({ min: 1, max: 700 }),
        /** The isolate dies this long after the burst began, holding whatever it leased. */
        diesAfter: fc.option(fc.integer({ min: 0, max: 30_000 })),
      }),
      { maxLength: 8 },
    ),
    deaths: fc.array(fc.record({ holder: fc.nat(3), at: fc.integer({ min: 0, max: 200_000 }) }), {
      maxLength: 4,
    }),
  })
  .map(({ bursts, deaths, ...s }) => ({
    ...s,
    arrivals: bursts.flatMap((burst) =>
      Array.from({ length: burst.count }, (_, i) => ({
        holder: burst.holder % s.holders,
        at: T + burst.start + i * burst.spacing,
      })),
    ),
    deaths: [
      ...deaths.map((d) => ({ holder: d.holder % s.holders, at: T + d.at })),
      ...bursts.flatMap((burst) =>
        burst.diesAfter === null
          ? []
          : [{ holder: burst.holder % s.holders, at: T + burst.start + burst.diesAfter }],
      ),
    ],
  }));

describe("leases shared by several isolates (simulated, explicit clocks)", () => {
  it("never admits more than the plan in any rolling 60 s window", () => {
    fc.assert(
      fc.property(scenarios, (scenario) => {
        const admitted = simulate(scenario).sort((a, b) => a.at - b.at);
        for (const { at } of admitted) {
          const inWindow = admitted.filter((other) => other.at > at - W && other.at <= at).length;
          expect(inWindow).toBeLessThanOrEqual(scenario.limit);
        }
      }),
      { numRuns: 1000 },
    );
  });

  it("tells a tenant served by one isolate no more than remains, whatever the latency and clock lag", () => {
    fc.assert(
      fc.property(
        scenarios.map((s) => ({
          ...s,
          holders: 1,
          deaths: [],
          arrivals: s.arrivals.map((a) => ({ ...a, holder: 0 })),
        })),
        (scenario) => {
          const admitted = simulate(scenario).sort((a, b) => a.at - b.at);
          admitted.forEach(({ at, remaining }, i) => {
            const upToIt = admitted.slice(0, i + 1).filter((other) => other.at > at - W).length;
            expect(remaining).toBeLessThanOrEqual(scenario.limit - upToIt);
          });
        },
      ),
      { numRuns: 500 },
    );
  });

  it("tells one isolate's caller exactly the plan minus its admissions in the window, which never rises but as they leave it", () => {
    fc.assert(
      fc.property(
        scenarios.map((s) => ({
          ...s,
          holders: 1,
          latency: 0,
          clockLags: [0],
          deaths: [],
          arrivals: s.arrivals.map((a) => ({ ...a, holder: 0 })),
        })),
        (scenario) => {
          const admitted = simulate(scenario).sort((a, b) => a.at - b.at);
          // The object places a reported use the clock margin after it happened: it leaves the window that much later.
          admitted.forEach(({ at, remaining }, i) => {
            const upToIt = admitted.slice(0, i + 1).filter((other) => other.at > at - W - CLOCK_MARGIN_MS);
            expect(remaining).toBe(scenario.limit - upToIt.length);
            const before = admitted[i - 1];
            if (before) {
              const left = admitted.filter(
                (other) => other.at <= at - W - CLOCK_MARGIN_MS && other.at > before.at - W - CLOCK_MARGIN_MS,
              ).length;
              expect(remaining).toBeLessThanOrEqual(before.remaining - 1 + left);
            }
          });
        },
      ),
      { numRuns: 500 },
    );
  });

  it("admits a lone isolate's burst up to exactly the plan, each Remaining one less than the last", () => {
    const arrivals = Array.from({ length: 70 }, (_, i) => ({ holder: 0, at: T + i * 10 }));
    const admitted = simulate({ limit: 60, holders: 1, latency: 5, clockLags: [0], arrivals, deaths: [] });
    expect(admitted).toHaveLength(60);
    expect(admitted.map((a) => a.remaining)).toEqual(Array.from({ length: 60 }, (_, i) => 59 - i));
  });
});
