// A subject's budget as its limiter object accounts it: pure data and functions with an explicit clock
// (no storage, no network). The object (`rate-limiter.ts`) only loads the ledger, calls these and stores
// the changes they name.
//
// Budget leases: the object grants an isolate a lease of a few slots; the isolate admits requests against
// it with no call. The object cannot know when (or whether) a leased slot is used until the isolate reports,
// so it counts every leased slot as used at the lease's expiry, the latest moment it could be used: an
// entry at time t counts in every window that ends before t + windowMs, so a slot counted at the expiry
// counts in every window that could contain its use, and no window ever admits more than the limit, even
// if the isolate dies holding the lease. A report replaces the lease's slots by the uses it lists (freeing
// the unused ones at once); an isolate that dies never reports, and its unused slots stay counted until
// the lease's expiry plus one window.
import { type Decision, decide, secondsUntil, standing, type WindowRule } from "./sliding-window";

/** How long after the grant the object counts a lease's slots as possibly used (object clock). */
export const LEASE_MS = 25_000;
/**
 * The isolate stops using a lease this long before `LEASE_MS` by its own clock (measured from just before
 * it asked), and the object places reported uses this much later than reported. A Workers clock only
 * advances on I/O, so a reading lags by the CPU time since the last I/O; a second covers that many times over.
 */
export const CLOCK_MARGIN_MS = 1_000;

/** Slots granted to one isolate at `grantedAt`, counted as used at `expiresAt` until reported. */
export interface Lease {
  id: string;
  grantedAt: number;
  expiresAt: number;
  slots: number;
}

/** What the object knows: uses at known times (ascending) and the leases not yet reported. */
export interface Ledger {
  hits: readonly number[];
  leases: readonly Lease[];
}

/** An isolate's account of a lease it will no longer use: each use, in ms after it asked for the lease (its clock). */
export interface LeaseReport {
  id: string;
  uses: readonly number[];
}

/**
 * What an isolate asks for: `need` slots for requests waiting now (granted while the budget allows) and
 * up to `spare` more to admit later requests without a call (granted only from a comfortable budget);
 * `holding` is how many unused slots it still holds from earlier leases.
 */
export interface LeaseAsk {
  need: number;
  spare: number;
  holding: number;
}

/** What the store must do to follow a transition: drop entries at or before `cutoff`, then the rest. */
export interface LedgerChanges {
  cutoff: number;
  settledLeases: string[];
  addedHits: number[];
  addedLease?: Lease;
}

export const emptyLedger: Ledger = { hits: [], leases: [] };

/** Every counted slot's time, ascending: the uses, and each unreported lease's slots at its expiry. */
function log(ledger: Ledger): number[] {
  const times = [...ledger.hits];
  for (const lease of ledger.leases) for (let i = 0; i < lease.slots; i++) times.push(lease.expiresAt);
  return times.sort((a, b) => a - b);
}

function insertSorted(times: readonly number[], added: readonly number[]): number[] {
  return [...times, ...added].sort((a, b) => a - b);
}

/** Forgets what no window from `now` on can contain: entries at or before `now - windowMs`. */
function prune(ledger: Ledger, now: number, windowMs: number): Ledger {
  const cutoff = now - windowMs;
  return {
    hits: ledger.hits.filter((at) => at > cutoff),
    leases: ledger.leases.filter((lease) => lease.expiresAt > cutoff),
  };
}

/**
 * Replaces each reported lease's slots by its uses, placed `CLOCK_MARGIN_MS` after the grant plus the
 * reported offset (never before the true use: the isolate asked before the grant), and never after the
 * expiry. A lease the object no longer holds has left every window already, so its report changes nothing.
 */
function settle(
  ledger: Ledger,
  reports: readonly LeaseReport[],
): { ledger: Ledger; settled: string[]; hits: number[] } {
  const settled: string[] = [];
  const hits: number[] = [];
  for (const report of reports) {
    const lease = ledger.leases.find((held) => held.id === report.id && !settled.includes(held.id));
    if (!lease) continue;
    settled.push(lease.id);
    for (const use of report.uses.slice(0, lease.slots)) {
      hits.push(Math.min(lease.expiresAt, lease.grantedAt + CLOCK_MARGIN_MS + Math.max(0, use)));
    }
  }
  return {
    ledger: {
      hits: insertSorted(ledger.hits, hits),
      leases: ledger.leases.filter((lease) => !settled.includes(lease.id)),
    },
    settled,
    hits,
  };
}

/** The most unused slots an isolate may hold: a quarter of the budget, so a dead isolate never strands more. */
export const maxSpare = (limit: number) => Math.ceil(limit / 4);

/** Where the budget stands for one more request at `now`: `remaining` is what the object can still grant. */
function outlook(ledger: Ledger, now: number, rule: WindowRule): Decision {
  const { counted, resetAt } = standing(log(ledger), now, rule);
  const remaining = Math.max(0, rule.limit - counted);
  return {
    allowed: remaining > 0,
    limit: rule.limit,
    remaining,
    resetAt,
    retryAfter: remaining > 0 ? 0 : secondsUntil(resetAt, now),
    windowMs: rule.windowMs,
  };
}

/**
 * Settles `reports`, then grants a lease `id` at `now`: every needed slot the budget still has, plus spare
 * ones as long as the asker then holds at most `maxSpare` unused slots and at most half of the budget left
 * free (its own unused slots included), so other isolates always find part of the budget and leases
 * shrink to exact per-request answers as the budget runs out. `next` tells where the budget stands after
 * the grant (a refusal when nothing is left).
 */
export function acquire(
  ledger: Ledger,
  now: number,
  rule: WindowRule,
  ask: LeaseAsk,
  reports: readonly LeaseReport[],
  id: string,
): { ledger: Ledger; changes: LedgerChanges; granted: number; next: Decision } {
  const settled = settle(prune(ledger, now, rule.windowMs), reports);
  const available = outlook(settled.ledger, now, rule).remaining;
  const forNow = Math.min(Math.max(0, ask.need), available);
  const holding = Math.max(0, ask.holding);
  const mostHeld = Math.min(maxSpare(rule.limit), Math.floor((available - forNow + holding) / 2));
  const spare = Math.max(0, Math.min(ask.spare, mostHeld - holding));
  const granted = forNow + spare;
  const lease = granted > 0 ? { id, grantedAt: now, expiresAt: now + LEASE_MS, slots: granted } : undefined;
  const after = lease ? { ...settled.ledger, leases: [...settled.ledger.leases, lease] } : settled.ledger;
  return {
    ledger: after,
    changes: {
      cutoff: now - rule.windowMs,
      settledLeases: settled.settled,
      addedHits: settled.hits,
      ...(lease ? { addedLease: lease } : {}),
    },
    granted,
    next: outlook(after, now, rule),
  };
}

/** Settles `reports` without asking for more: an isolate handing back what it will not use. */
export function handBack(
  ledger: Ledger,
  now: number,
  windowMs: number,
  reports: readonly LeaseReport[],
): { ledger: Ledger; changes: LedgerChanges } {
  const settled = settle(prune(ledger, now, windowMs), reports);
  return {
    ledger: settled.ledger,
    changes: { cutoff: now - windowMs, settledLeases: settled.settled, addedHits: settled.hits },
  };
}

/** Admits (and records at `now`) or refuses one request decided by the object itself, e.g. a login attempt. */
export function hit(
  ledger: Ledger,
  now: number,
  rule: WindowRule,
): { ledger: Ledger; changes: LedgerChanges; decision: Decision } {
  const pruned = prune(ledger, now, rule.windowMs);
  const decision = decide(log(pruned), now, rule);
  return {
    ledger: decision.allowed ? { ...pruned, hits: insertSorted(pruned.hits, [now]) } : pruned,
    changes: { cutoff: now - rule.windowMs, settledLeases: [], addedHits: decision.allowed ? [now] : [] },
    decision,
  };
}

/** Gives back one recorded use at `at`: it turned out not to count, e.g. a successful login. */
export function forget(ledger: Ledger, at: number): Ledger {
  const index = ledger.hits.indexOf(at);
  return index === -1 ? ledger : { ...ledger, hits: ledger.hits.filter((_, i) => i !== index) };
}

/** When every entry has left the window: after that the subject's storage can go. */
export function idleAt(ledger: Ledger, windowMs: number): number {
  const last = Math.max(0, ...ledger.hits, ...ledger.leases.map((lease) => lease.expiresAt));
  return last + windowMs;
}
