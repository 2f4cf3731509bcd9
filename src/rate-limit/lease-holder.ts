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

/** A request admitted against a lease: `remaining` counts only this isolate's unused slots (a floor). */
export interface LeasedSlot {
  leaseId: string;
  remaining: number;
  resetAt: number;
}

export class LeaseHolder {
  #leases: HeldLease[] = [];
  #reports: (LeaseReport & { unused: number })[] = [];
  /** This isolate's admissions in the last `RATE_SPAN_MS`. */
  #admissions: number[] = [];

  /** Takes a slot at `now` for a request under `limit` from the lease that ends first, if any has one. */
  take(now: number, limit: number): LeasedSlot | undefined {
    this.#retire(now, limit);
    const lease = this.#leases[0];
    if (!lease) return undefined;
    lease.uses.push(now - lease.askedAt);
    this.#admissions.push(now);
    const slot = { leaseId: lease.id, remaining: this.unused(), resetAt: lease.resetAt };
    this.#retire(now, limit);
    return slot;
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

  /** Records the object's grant of `slots` (asked for at `askedAt`) under `limit`. */
  receive(grant: { id: string; slots: number; resetAt: number }, askedAt: number, limit: number): void {
    if (grant.slots <= 0) return;
    this.#leases.push({ ...grant, limit, askedAt, uses: [] });
    this.#leases.sort((a, b) => a.askedAt - b.askedAt);
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
    return this.#admissions.length >= LEASING_FROM ? Math.ceil(this.#rate(now) * LEASE_TRAFFIC_MS) : 0;
  }

  /** Admissions per ms over the last `RATE_SPAN_MS`. */
  #rate(now: number): number {
    this.#admissions = this.#admissions.filter((at) => at > now - RATE_SPAN_MS);
    const oldest = this.#admissions[0];
    if (oldest === undefined) return 0;
    return this.#admissions.length / Math.max(RATE_FLOOR_MS, now - oldest);
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
