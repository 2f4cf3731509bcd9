// README, "Webhooks": retries about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h after each failure
// (8 attempts over roughly 28 hours), each with up to 10% jitter so a receiver that comes back is
// not hit by every delayed message at the same second.
const RETRY_DELAYS_SECONDS = [5, 5 * 60, 30 * 60, 2 * 3600, 5 * 3600, 10 * 3600, 10 * 3600];

export const MAX_ATTEMPTS = RETRY_DELAYS_SECONDS.length + 1;

/** Seconds to wait after failed attempt number `attempt` (1-based), or null when no attempt is left. */
export function retryDelaySeconds(attempt: number, random: () => number = Math.random): number | null {
  const base = RETRY_DELAYS_SECONDS[attempt - 1];
  if (base === undefined) return null;
  return Math.round(base * (1 + 0.1 * random()));
}

/** A subscription whose deliveries have failed without a success for this long is disabled. */
export const DISABLE_AFTER_FAILING_MS = 5 * 24 * 60 * 60_000;
