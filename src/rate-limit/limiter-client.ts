import type { Bindings } from "../env";
import { log } from "../observability/log";
import type { RateLimiter } from "./rate-limiter";

/**
 * Calls the limiter object of `subject` (`tenant:<id>`, `login-email:<email>`, ...). The limiter must
 * never be a single point of failure: if the object cannot be reached the answer is `undefined`, the
 * caller serves the request unlimited (fail open), and a structured log line records it.
 */
export async function consultLimiter<T>(
  env: Pick<Bindings, "RATE_LIMITER">,
  subject: string,
  ask: (limiter: DurableObjectStub<RateLimiter>) => Promise<T>,
  logFields: Record<string, string | undefined>,
): Promise<T | undefined> {
  try {
    return await ask(env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(subject)));
  } catch (error) {
    log("warn", "rate limiter unreachable; request served without limit (fail open)", {
      ...logFields,
      error: error instanceof Error ? error.message : String(error),
    });
    return undefined;
  }
}
