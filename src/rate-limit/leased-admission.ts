import type { AppContext } from "../env";
import { LeaseHolder, USABLE_MS } from "./lease-holder";
import { consultLimiter } from "./limiter-client";
import type { LeaseGrant } from "./rate-limiter";
import { cachedRefusal, rememberRefusal } from "./refusal-cache";
import { type Decision, secondsUntil, type WindowRule } from "./sliding-window";

/**
 * This isolate's leases on one subject's budget, and the one call to its object that may be under way. Every
 * request of the isolate shares it, so it holds plain data only, never a promise: workerd lets a request wait
 * only on I/O it started itself. A request awaiting another request's call fails ("Cannot perform I/O on
 * behalf of a different request") or hangs when that request ends first (docs/decisions/rate-limits.md).
 */
interface Subject {
  holder: LeaseHolder;
  /** The call under way, if any (this isolate's clock when it started): a request without a slot waits for it. */
  call?: { startedAt: number };
  /** Calls finished so far, and whether the last one reached the object: what a waiting request looks at. */
  callsDone: number;
  lastReached: boolean;
  /** Requests waiting for the call under way; the next call asks for all of them at once. */
  waiting: number;
}

/** Bounds the isolate's memory if very many subjects pass through; a forgotten lease only strands its unused slots. */
const MAX_SUBJECTS = 10_000;
const subjects = new Map<string, Subject>();

/**
 * A request waits this long at most for calls other requests made, then makes its own: a call whose request was
 * canceled never reports its end, and a waiter must never hang.
 */
const MAX_WAIT_MS = 2_000;
/** How often a waiting request looks whether the call ended, on its own timer (a Workers timer is its own I/O). */
const POLL_MS = 2;

/** Calls this isolate made to limiter objects for leases (asks and hand-backs), reported in development for benchmarks. */
let objectCalls = 0;
export const leaseCallsSoFar = () => objectCalls;

function subjectNamed(name: string, windowMs: number): Subject {
  let subject = subjects.get(name);
  if (!subject) {
    if (subjects.size >= MAX_SUBJECTS) subjects.clear();
    subject = { holder: new LeaseHolder(windowMs), callsDone: 0, lastReached: true, waiting: 0 };
    subjects.set(name, subject);
  }
  return subject;
}

export type Admission = Decision & { at: number };

/**
 * Admits or refuses one request of subject `name` (e.g. `tenant:<id>`) under `rule`. A slot of this
 * isolate's leases admits with no call; without one, the request waits for the call another request has
 * under way (which asks for every waiting request at once), or makes the call itself. `undefined` means the
 * object could not be reached: the caller serves the request unlimited (fail open, logged).
 */
export async function admit(
  c: AppContext,
  name: string,
  rule: WindowRule,
  logFields: Record<string, string>,
): Promise<Admission | undefined> {
  const log = { ...logFields, requestId: c.var.requestId };
  const subject = subjectNamed(name, rule.windowMs);
  const arrivedAt = Date.now();
  let answer: LeaseGrant | undefined;
  for (;;) {
    const now = Date.now();
    const slot = subject.holder.take(now, rule.limit);
    if (slot) {
      askAhead(c, name, subject, rule, now, log);
      return {
        allowed: true,
        limit: rule.limit,
        remaining: slot.remaining,
        resetAt: Math.max(slot.resetAt, now),
        retryAfter: 0,
        windowMs: rule.windowMs,
        at: now,
      };
    }
    if (answer && !answer.next.allowed) {
      return { ...answer.next, remaining: 0, retryAfter: secondsUntil(answer.next.resetAt, now), at: now };
    }
    const refusal = cachedRefusal(name, rule.limit, now);
    if (refusal) return refusal;
    if (subject.call && now - arrivedAt < MAX_WAIT_MS) {
      const reached = await c.var.d1Stats.roundTrips.track(callEnded(subject, arrivedAt + MAX_WAIT_MS));
      if (!reached) return undefined;
      continue;
    }
    answer = await c.var.d1Stats.roundTrips.track(ask(c, name, subject, rule, 1 + subject.waiting, log));
    if (!answer) return undefined;
  }
}

/**
 * Waits, on this request's own timer, until the call under way ends (or `deadline`); answers whether the
 * object was reached (a waiter fails open with the call, as it would have with its own).
 */
async function callEnded(subject: Subject, deadline: number): Promise<boolean> {
  const seen = subject.callsDone;
  subject.waiting++;
  try {
    while (subject.callsDone === seen && subject.call && Date.now() < deadline) await scheduler.wait(POLL_MS);
  } finally {
    subject.waiting--;
  }
  return subject.callsDone === seen || subject.lastReached;
}

/** One call to the subject's object: reports finished leases, asks for `need` slots and spare ones. */
async function ask(
  c: AppContext,
  name: string,
  subject: Subject,
  rule: WindowRule,
  need: number,
  log: Record<string, string>,
): Promise<LeaseGrant | undefined> {
  const askedAt = Date.now();
  const call = { startedAt: askedAt };
  subject.call = call;
  const { ask, reports } = subject.holder.ask(askedAt, need);
  objectCalls++;
  let grant: LeaseGrant | undefined;
  try {
    grant = await consultLimiter(c.env, name, (limiter) => limiter.acquire(rule, ask, reports), log);
    if (!grant) return undefined;
    subject.holder.receive(
      { id: grant.id, slots: grant.slots, resetAt: grant.next.resetAt, free: grant.next.remaining },
      askedAt,
      rule.limit,
      Date.now(),
    );
    if (!grant.next.allowed) rememberRefusal(name, { ...grant.next, at: askedAt });
    // Spare slots may outlive the isolate's need for them: hand them back when the lease ends.
    if (grant.slots > need) handBackAt(c, name, subject, rule.windowMs, askedAt + USABLE_MS, log);
    return grant;
  } finally {
    // A waiter gave up on a call slower than its patience and made its own: that one is under way now.
    if (subject.call === call) subject.call = undefined;
    subject.callsDone++;
    subject.lastReached = grant !== undefined;
  }
}

/** Asks for the next lease before this one runs out, off the request's critical path (and on its own `waitUntil`). */
function askAhead(
  c: AppContext,
  name: string,
  subject: Subject,
  rule: WindowRule,
  now: number,
  log: Record<string, string>,
): void {
  if (subject.call || !subject.holder.wantsMore(now, rule.limit)) return;
  // The budget is known to be spent until then: the object would grant nothing.
  if (cachedRefusal(name, rule.limit, now)) return;
  c.executionCtx.waitUntil(ask(c, name, subject, rule, 0, log));
}

/**
 * At `at` (the end of a lease with spare slots), hands back every lease that is over if one of them left
 * slots unused and no call carried its report meanwhile: its unused slots free at once instead of a window
 * after its expiry. Runs in the granting request's `waitUntil`, at most `USABLE_MS` after it asked.
 */
function handBackAt(
  c: AppContext,
  name: string,
  subject: Subject,
  windowMs: number,
  at: number,
  log: Record<string, string>,
): void {
  const handBack = async () => {
    await scheduler.wait(Math.max(0, at - Date.now()) + 1);
    const reports = subject.holder.handBackDue(Date.now());
    if (reports.length === 0) return;
    objectCalls++;
    await consultLimiter(c.env, name, (limiter) => limiter.handBack(windowMs, reports), log);
  };
  c.executionCtx.waitUntil(handBack());
}
