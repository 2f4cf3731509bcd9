import type { AppContext } from "../env";
import { AppError } from "../http/errors";
import { consultLimiter } from "./limiter-client";
import type { WindowRule } from "./sliding-window";

const FIFTEEN_MINUTES = 15 * 60_000;
/** Failed logins per email: enough for typos, far too few to guess a password. */
const PER_EMAIL: WindowRule = { limit: 10, windowMs: FIFTEEN_MINUTES };
/** Failed logins and refreshes per client IP: higher, since offices and NATs share an address. */
const PER_IP: WindowRule = { limit: 100, windowMs: FIFTEEN_MINUTES };

interface Subject {
  name: string;
  rule: WindowRule;
  /** What a successful attempt does to this subject's log: forget every failure, or only its own slot. */
  onSuccess: "clear" | "forget";
}

/**
 * Runs `attempt` under brute-force limits. Each subject's slot is taken before the attempt, so a
 * concurrent burst cannot exceed a limit; a 401 keeps it as a failure; a success gives it back (or
 * clears the subject's failures, per `onSuccess`); a refusal or any other outcome gives it back.
 * Limiter outages fail open, like the plan limits.
 */
async function throttled<T>(c: AppContext, subjects: Subject[], attempt: () => Promise<T>): Promise<T> {
  const logFields = { limiter: "login", requestId: c.var.requestId };
  const slots = await Promise.all(
    subjects.map((subject) =>
      consultLimiter(c.env, subject.name, (limiter) => limiter.hit(subject.rule), logFields),
    ),
  );
  const release = (succeeded: boolean) =>
    Promise.all(
      subjects.map((subject, i) => {
        const slot = slots[i];
        if (!slot?.allowed) return undefined;
        const clear = succeeded && subject.onSuccess === "clear";
        return consultLimiter(
          c.env,
          subject.name,
          (limiter) => (clear ? limiter.clear() : limiter.forget(slot.at)),
          logFields,
        );
      }),
    );

  const refused = slots.filter((slot): slot is NonNullable<typeof slot> => slot?.allowed === false);
  if (refused.length > 0) {
    await release(false);
    const retryAfter = Math.max(...refused.map((slot) => slot.retryAfter));
    throw new AppError("RATE_LIMITED", `Too many failed attempts; retry in ${retryAfter} s`, {
      headers: { "Retry-After": String(retryAfter) },
    });
  }
  let result: T;
  try {
    result = await attempt();
  } catch (error) {
    if (!(error instanceof AppError && error.code === "UNAUTHORIZED")) await release(false);
    throw error;
  }
  await release(true);
  return result;
}

const ipSubject = (c: AppContext): Subject => ({
  name: `login-ip:${c.req.header("cf-connecting-ip") ?? "unknown"}`,
  rule: PER_IP,
  onSuccess: "forget",
});

/** `POST /auth/login`: at most 10 failures per email and 100 per client IP in 15 minutes; a success clears the email's failures. */
export function throttleLogin<T>(c: AppContext, email: string, attempt: () => Promise<T>): Promise<T> {
  const emailSubject: Subject = {
    name: `login-email:${email.trim().toLowerCase()}`,
    rule: PER_EMAIL,
    onSuccess: "clear",
  };
  return throttled(c, [emailSubject, ipSubject(c)], attempt);
}

/** `POST /auth/refresh`: a refresh token names no email before it is verified, so failures count per client IP. */
export function throttleRefresh<T>(c: AppContext, attempt: () => Promise<T>): Promise<T> {
  return throttled(c, [ipSubject(c)], attempt);
}
