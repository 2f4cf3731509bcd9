// One isolate's leases on one subject's budget, with an explicit clock: which lease admits a request,
// what to ask the object for, when to ask ahead of time, and what to report back. No network:
// `leased-admission.ts` makes the calls.
import { CLOCK_MARGIN_MS, LEASE_MS, type LeaseAsk, type LeaseReport, maxSpare } from "./ledger";

/**
 * An isolate judges its request rate by its admissions over the last `RATE_SPAN_MS`, divided by the time
 * they took (at least `RATE_FLOOR_MS`, so a handful of requests at once is not taken for a flood).
 */
export const RATE_SPAN_MS = 10_000;
const RATE_FLOOR_MS = 2_000;
/** A lease is sized to last this long at that rate, within `USABLE_MS` even when asked for early. */
const LEASE_TRAFFIC_MS = 20_000;
/** The next lease is asked for when about this much traffic is left: far more than a call's round trip. */
const ASK_AHEAD_MS = 1_000;
/**
 * Below this many admissions in `RATE_SPAN_MS` (one every two seconds) the isolate asks for no spare
 * slots: every request asks the object, whose answers (Remaining included) are exact. The calls are
 * too few to matter.
 */
export const LEASING_FROM = 5;
/** By its own clock an isolate uses a lease from just before it asked until this much later. */
export const USABLE_MS = LEASE_MS - CLOCK_MARGIN_MS;

interface HeldLease {
  id: string;
  /** The plan limit the lease was granted under: a request under another limit never uses it. */
  limit: number;
  slots: number;
  /** This isolate's clock just before it asked; uses are reported relative to it. */
  askedAt: number;
  uses: number[];
  /** When the object said the next slot frees, as of the grant. */
  resetAt: number;
}

/**
 * A request admitted against a lease. `remaining` is the plan minus this isolate's admissions in the window
 * and minus what the object counted for other isolates at its last answer: exact for a tenant served by one
 * isolate, and never rising but as admissions leave the window (leased slots not yet used are not spent).
 */
export interface LeasedSlot {
  leaseId: string;
  remaining: number;
  resetAt: number;
}

export class LeaseHolder {
  readonly #windowMs: number;
  #leases: HeldLease[] = [];
  #reports: (LeaseReport & { unused: number })[] = [];
  /**
   * This isolate's admissions (its clock) for as long as the object may still count them: a window plus the
   * clock margin by which the object places a reported use later than it happened.
   */
  #admissions: number[] = [];
  /** What the object counted at its last answer beyond this isolate's admissions and unused slots: other isolates' use. */
  #others = 0;

  constructor(windowMs: number) {
    this.#windowMs = windowMs;
  }

  /** Takes a slot at `now` for a request under `limit` from the lease that ends first, if any has one. */
  take(now: number, limit: number): LeasedSlot | undefined {
    this.#retire(now, limit);
    const lease = this.#leases[0];
    if (!lease) return undefined;
    lease.uses.push(now - lease.askedAt);
    this.#admissions.push(now);
    const slot = { leaseId: lease.id, remaining: this.remaining(now, limit), resetAt: lease.resetAt };
    this.#retire(now, limit);
    return slot;
  }

  /**
   * What is left of `limit` at `now` as this isolate knows it: its own admissions still in the window and the
   * other isolates' as of the object's last answer are spent; its unused leased slots are not.
   */
  remaining(now: number, limit: number): number {
    return Math.max(0, limit - this.#others - this.#admittedInWindow(now));
  }

  #admittedInWindow(now: number): number {
    const cutoff = now - this.#windowMs - CLOCK_MARGIN_MS;
    while (this.#admissions.length > 0 && (this.#admissions[0] as number) <= cutoff) this.#admissions.shift();
    return this.#admissions.length;
  }

  /** Slots this isolate holds and has not used. */
  unused(): number {
    return this.#leases.reduce((sum, lease) => sum + lease.slots - lease.uses.length, 0);
  }

  /**
   * What to ask the object for at `now`: `need` slots for waiting requests and, for an isolate busy on this
   * subject, spare ones for `LEASE_TRAFFIC_MS` of its recent rate (so the lease size follows the rate).
   * Hands over the reports of finished leases.
   */
  ask(now: number, need: number): { ask: LeaseAsk; reports: LeaseReport[] } {
    return {
      ask: { need, spare: this.#spareWanted(now), holding: this.unused() },
      reports: this.#takeReports(),
    };
  }

  #takeReports(): LeaseReport[] {
    const reports = this.#reports.map(({ id, uses }) => ({ id, uses }));
    this.#reports = [];
    return reports;
  }

  /**
   * Records the object's grant of `slots` (asked for at `askedAt`, answered at `receivedAt`) under `limit`, and
   * `free`: what the object could still grant after it. What it counted beyond that is this isolate's unused
   * slots, its admissions in the window, and the other isolates' use, which later answers bring up to date.
   */
  receive(
    grant: { id: string; slots: number; resetAt: number; free: number },
    askedAt: number,
    limit: number,
    receivedAt: number,
  ): void {
    const { free, ...lease } = grant;
    if (lease.slots > 0) {
      this.#leases.push({ ...lease, limit, askedAt, uses: [] });
      this.#leases.sort((a, b) => a.askedAt - b.askedAt);
    }
    this.#others = Math.max(0, limit - free - this.unused() - this.#admittedInWindow(receivedAt));
  }

  /**
   * Whether to ask ahead of time under `limit`: busy, and down to about `ASK_AHEAD_MS` of traffic (at most a
   * quarter of what a new lease would bring, at least one slot).
   */
  wantsMore(now: number, limit: number): boolean {
    const spare = Math.min(this.#spareWanted(now), maxSpare(limit));
    const oneSecond = Math.ceil(this.#rate(now) * ASK_AHEAD_MS);
    return spare > 0 && this.unused() <= Math.max(1, Math.min(oneSecond, Math.floor(spare / 4)));
  }

  /**
   * What to hand back at `now`: the reports of every lease that is over (used up or past its usable time),
   * if one of them left slots unused. Reports that would only tighten known uses wait for the next ask.
   */
  handBackDue(now: number): LeaseReport[] {
    this.#retire(now);
    if (!this.#reports.some((report) => report.unused > 0)) return [];
    return this.#takeReports();
  }

  #spareWanted(now: number): number {
    return this.#recent(now).length >= LEASING_FROM ? Math.ceil(this.#rate(now) * LEASE_TRAFFIC_MS) : 0;
  }

  /** This isolate's admissions in the last `RATE_SPAN_MS`. */
  #recent(now: number): number[] {
    return this.#admissions.filter((at) => at > now - RATE_SPAN_MS);
  }

  /** Admissions per ms over the last `RATE_SPAN_MS`. */
  #rate(now: number): number {
    const recent = this.#recent(now);
    const oldest = recent[0];
    if (oldest === undefined) return 0;
    return recent.length / Math.max(RATE_FLOOR_MS, now - oldest);
  }

  /** Moves used-up and expired leases, and those granted under another limit (a plan change), to the reports. */
  #retire(now: number, limit?: number): void {
    const over = (lease: HeldLease) =>
      lease.uses.length >= lease.slots ||
      now > lease.askedAt + USABLE_MS ||
      (limit !== undefined && lease.limit !== limit);
    for (const lease of this.#leases.filter(over)) {
      this.#reports.push({ id: lease.id, uses: lease.uses, unused: lease.slots - lease.uses.length });
    }
    this.#leases = this.#leases.filter((lease) => !over(lease));
  }
}
