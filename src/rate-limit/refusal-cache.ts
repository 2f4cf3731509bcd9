import { type Decision, secondsUntil } from "./sliding-window";

type Refusal = Decision & { at: number };

/** Bounds the isolate's memory if very many subjects are refused at once; forgetting only costs an object call. */
const MAX_ENTRIES = 10_000;
const refusals = new Map<string, Refusal>();

/**
 * A refusal this isolate already received, still valid at `now`. Until `resetAt` the object refuses every
 * request under the same limit too, so no object call is needed: its ledger only grows by grants, and the
 * count drops below the limit only when the blocking entry leaves, or when another isolate hands back
 * unused lease slots (then this isolate refuses for a little longer than the object would: never more).
 * A different limit (a plan change) always asks the object.
 */
export function cachedRefusal(subject: string, limit: number, now: number): Refusal | undefined {
  const refusal = refusals.get(subject);
  if (!refusal) return undefined;
  if (refusal.limit !== limit || now >= refusal.resetAt) {
    refusals.delete(subject);
    return undefined;
  }
  return { ...refusal, at: now, retryAfter: secondsUntil(refusal.resetAt, now) };
}

export function rememberRefusal(subject: string, decision: Refusal): void {
  if (decision.allowed) return;
  if (refusals.size >= MAX_ENTRIES) refusals.clear();
  refusals.set(subject, decision);
}
