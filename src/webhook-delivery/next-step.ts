import { DISABLE_AFTER_FAILING_MS, retryDelaySeconds } from "./retry-schedule";

// What happens after a delivery attempt, as a pure function of the attempt and its outcome: no database,
// no network (deliver.ts does the I/O and records what this decides).

/** The attempt being judged: its number (1-based), since when the subscription fails, and now. */
export interface Attempt {
  number: number;
  /** When the subscription's deliveries started failing without a success since (null: not failing). */
  failingSince: string | null;
  now: Date;
}

/** What the receiver did: answered with a status, or nothing came back (network error, timeout: null). */
export type Outcome =
  | { sent: true; statusCode: number | null }
  /**
   * Never sent: the subscription is gone or disabled, the event is gone, its creator may not send it, or the
   * URL is refused now. `stop`: why the subscription stops for good (its creator may do nothing any more).
   */
  | { sent: false; stop?: string };

export interface NextStep {
  /** The delivery's status after this attempt: pending means another attempt follows. */
  status: "succeeded" | "failed" | "pending";
  /** Seconds until the next attempt (pending only). */
  retryAfterSeconds: number | null;
  /** Changes to the subscription: disabling it, or when its failures started. */
  subscription: { active?: false; disabledReason?: string; failingSince?: string | null } | null;
}

const succeeded = (statusCode: number | null) => statusCode !== null && statusCode >= 200 && statusCode < 300;

/**
 * A delivery never sent fails at once (and stops the subscription when its creator may do nothing any more).
 * A 2xx ends the delivery (and the subscription's failing streak); 410 Gone disables the subscription;
 * so do 5 days of failures; otherwise a failure is retried on the schedule until it runs out, after which
 * the delivery is kept as failed (retryable by hand). `random` is the schedule's jitter.
 */
export function nextStep(attempt: Attempt, outcome: Outcome, random: () => number = Math.random): NextStep {
  const done = (status: NextStep["status"], subscription: NextStep["subscription"] = null): NextStep => ({
    status,
    retryAfterSeconds: null,
    subscription,
  });
  if (!outcome.sent) {
    return done("failed", outcome.stop ? { active: false, disabledReason: outcome.stop } : null);
  }
  if (succeeded(outcome.statusCode)) {
    return done("succeeded", attempt.failingSince ? { failingSince: null } : null);
  }
  if (outcome.statusCode === 410) {
    return done("failed", { active: false, disabledReason: "The receiver answered 410 Gone" });
  }
  const failingSince = attempt.failingSince ?? attempt.now.toISOString();
  if (attempt.now.getTime() - Date.parse(failingSince) >= DISABLE_AFTER_FAILING_MS) {
    return done("failed", { active: false, disabledReason: "Every delivery failed for 5 days" });
  }
  const delay = retryDelaySeconds(attempt.number, random);
  if (delay === null) return done("failed", { failingSince });
  return { status: "pending", retryAfterSeconds: delay, subscription: { failingSince } };
}
