/** A budget: at most `limit` admitted requests in any rolling `windowMs`. */
export interface WindowRule {
  limit: number;
  windowMs: number;
}

export interface Decision {
  allowed: boolean;
  limit: number;
  /** Requests still admissible right now, after this one. */
  remaining: number;
  /** Epoch ms at which the next slot frees (the oldest counted request that blocks leaves the window). */
  resetAt: number;
  /** Whole seconds to wait before retrying: 0 when admitted, at least 1 when refused. */
  retryAfter: number;
  windowMs: number;
}

/**
 * Where a log stands at `now`: how many entries are `counted` in the window `(now - windowMs, now]`,
 * and when the next slot frees (`resetAt`). While fewer than `limit` are counted, that is when the oldest counted entry leaves (or
 * one window after `now` for an empty log); otherwise enough entries must leave for the count to drop
 * below the limit (more than one when a plan was just lowered), so the blocking entry is the
 * (counted - limit)-th live one. `log` is ascending.
 */
export function standing(
  log: readonly number[],
  now: number,
  rule: WindowRule,
): { counted: number; resetAt: number } {
  const cutoff = now - rule.windowMs;
  let expired = 0;
  while (expired < log.length && (log[expired] as number) <= cutoff) expired++;
  const counted = log.length - expired;
  const blocking =
    counted < rule.limit ? (log[expired] ?? now) : (log[expired + counted - rule.limit] as number);
  return { counted, resetAt: blocking + rule.windowMs };
}

/**
 * The exact sliding log: a request at `now` is admitted when fewer than `limit` logged requests
 * fall inside the window `(now - windowMs, now]`, so no rolling window ever holds more than `limit`.
 * `log` holds the admitted requests' times in ascending order and may still hold expired ones.
 */
export function decide(log: readonly number[], now: number, rule: WindowRule): Decision {
  const { counted, resetAt } = standing(log, now, rule);
  const allowed = counted < rule.limit;
  return {
    allowed,
    limit: rule.limit,
    remaining: allowed ? rule.limit - counted - 1 : 0,
    resetAt,
    retryAfter: allowed ? 0 : secondsUntil(resetAt, now),
    windowMs: rule.windowMs,
  };
}

/** Whole seconds from `now` until `at`, at least 1: a client that waits that long is never early. */
export function secondsUntil(at: number, now: number): number {
  return Math.max(1, Math.ceil((at - now) / 1000));
}
