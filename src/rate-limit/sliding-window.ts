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
 * The exact sliding log: a request at `now` is admitted when fewer than `limit` logged requests
 * fall inside the window `(now - windowMs, now]`, so no rolling window ever holds more than `limit`.
 * `log` holds the admitted requests' times in ascending order and may still hold expired ones;
 * `expired` says how many leading entries the caller can drop.
 */
export function decide(
  log: readonly number[],
  now: number,
  rule: WindowRule,
): { decision: Decision; expired: number } {
  const cutoff = now - rule.windowMs;
  let expired = 0;
  while (expired < log.length && (log[expired] as number) <= cutoff) expired++;
  const counted = log.length - expired;
  const allowed = counted < rule.limit;
  // Admitted: the window's oldest entry (this request, if the log was empty) frees the next slot.
  // Refused: enough entries must leave for the count to drop below the limit (more than one
  // when a plan was just lowered), so the blocking entry is the (counted - limit)-th live one.
  const blocking = allowed ? (log[expired] ?? now) : (log[expired + counted - rule.limit] as number);
  const resetAt = blocking + rule.windowMs;
  return {
    expired,
    decision: {
      allowed,
      limit: rule.limit,
      remaining: allowed ? rule.limit - counted - 1 : 0,
      resetAt,
      retryAfter: allowed ? 0 : Math.max(1, Math.ceil((resetAt - now) / 1000)),
      windowMs: rule.windowMs,
    },
  };
}
