import ipaddr from "ipaddr.js";
import type { AppContext } from "../env";
import { AppError } from "../http/errors";
import { consultLimiter } from "./limiter-client";
import type { WindowRule } from "./sliding-window";

const MINUTE = 60_000;
/**
 * Failed logins per (email, client): a delay that grows with the failures, from a minute after 5 quick ones to
 * a day after 20. Enough for anyone's typos; a single client guesses at most 20 passwords of an email a day.
 */
const PER_EMAIL_AND_CLIENT: readonly WindowRule[] = [
  { limit: 5, windowMs: MINUTE },
  { limit: 10, windowMs: 15 * MINUTE },
  { limit: 20, windowMs: 24 * 60 * MINUTE },
];
/**
 * Failed logins per email from all clients together: the ceiling on a guesser spread over many addresses.
 * It does not apply to a client the email signed in from recently, so it cannot lock a person out of their
 * usual address.
 */
const PER_EMAIL: WindowRule = { limit: 30, windowMs: 60 * MINUTE };
/** Failed logins and refreshes per client: higher, since offices and NATs share an address. */
const PER_CLIENT: WindowRule = { limit: 100, windowMs: 15 * MINUTE };
/** Wrong current passwords per user (`POST /auth/password`): a stolen access token cannot guess on. */
const PER_USER_PASSWORD_CHECK: WindowRule = { limit: 10, windowMs: 15 * MINUTE };
/** Reset mails per email and per client in an hour: no mailbox is flooded, no client sprays every address. */
const RESET_MAILS_PER_EMAIL: WindowRule = { limit: 5, windowMs: 60 * MINUTE };
const RESET_MAILS_PER_CLIENT: WindowRule = { limit: 30, windowMs: 60 * MINUTE };

/** The message of a wrong current password (`POST /auth/password`), which counts as a failed attempt. */
export const WRONG_PASSWORD = "The current password is incorrect";

/** A failed attempt: wrong credentials (401), or a wrong current password when changing it. */
const isFailedAttempt = (error: unknown) =>
  error instanceof AppError &&
  (error.code === "UNAUTHORIZED" || (error.code === "VALIDATION_FAILED" && error.message === WRONG_PASSWORD));

/**
 * Who is trying, as brute-force limits count it: the IPv4 address, or the /64 prefix of an IPv6 one (one
 * subscriber's network; counting single IPv6 addresses would give an attacker 2^64 fresh budgets).
 */
export function signInClient(c: AppContext): string {
  const ip = c.req.header("cf-connecting-ip");
  if (!ip || !ipaddr.isValid(ip)) return "unknown";
  const address = ipaddr.parse(ip);
  if (address.kind() === "ipv4") return address.toString();
  const v6 = address as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().toString();
  return `${v6.parts
    .slice(0, 4)
    .map((part) => part.toString(16))
    .join(":")}::/64`;
}

interface Subject {
  name: string;
  rule: WindowRule;
  /** What a successful attempt does to this subject's log: forget every failure, or only its own slot. */
  onSuccess: "clear" | "forget";
  /** When this resolves true, the subject's refusal does not stop the attempt (a known client and the email ceiling). */
  waived?: Promise<boolean>;
}

/**
 * Runs `attempt` under brute-force limits. Each subject's slot is taken before the attempt, so a
 * concurrent burst cannot exceed a limit; a failed attempt keeps it; a success gives it back (or
 * clears the subject's failures, per `onSuccess`); a refusal or any other outcome gives it back.
 * Limiter outages fail open, like the plan limits.
 */
async function throttled<T>(
  c: AppContext,
  subjects: Subject[],
  attempt: () => Promise<T>,
  failed: (error: unknown) => boolean = isFailedAttempt,
): Promise<T> {
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

  const refusals = await Promise.all(
    subjects.map(async (subject, i) => {
      const slot = slots[i];
      if (slot?.allowed !== false) return undefined;
      return (await subject.waived) ? undefined : slot;
    }),
  );
  const refused = refusals.filter((slot) => slot !== undefined);
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
    if (!failed(error)) await release(false);
    throw error;
  }
  await release(true);
  return result;
}

const clientSubject = (c: AppContext): Subject => ({
  name: `login-ip:${signInClient(c)}`,
  rule: PER_CLIENT,
  onSuccess: "forget",
});

/**
 * `POST /auth/login`: failures count per (email, client) with a growing delay, per email (30 an hour, waived
 * for a client the email recently signed in from: `knownClient`) and per client (100 in 15 minutes). A
 * success clears the (email, client) failures and gives back its own email and client slots, so one
 * person's success never wipes an attacker's count.
 */
export function throttleLogin<T>(
  c: AppContext,
  email: string,
  knownClient: Promise<boolean>,
  attempt: () => Promise<T>,
): Promise<T> {
  const who = email.trim().toLowerCase();
  const client = signInClient(c);
  const perPair = PER_EMAIL_AND_CLIENT.map(
    (rule): Subject => ({ name: `login-pair:${rule.windowMs}:${who}|${client}`, rule, onSuccess: "clear" }),
  );
  const perEmail: Subject = {
    name: `login-email:${who}`,
    rule: PER_EMAIL,
    onSuccess: "forget",
    waived: knownClient.catch(() => false),
  };
  return throttled(c, [...perPair, perEmail, clientSubject(c)], attempt);
}

/** `POST /auth/refresh`: a refresh token names no email before it is verified, so failures count per client. */
export function throttleRefresh<T>(c: AppContext, attempt: () => Promise<T>): Promise<T> {
  return throttled(c, [clientSubject(c)], attempt);
}

/** A mailed token (invitation, password reset) that names nothing open: unknown, used, revoked or expired. */
const isUnknownToken = (error: unknown) => error instanceof AppError && error.code === "NOT_FOUND";

/**
 * The public routes that take a mailed token (invitation inspect and accept, password-reset confirm): a token
 * that names nothing is a failed attempt of the client, counted in the budget its failed logins use (100 in
 * 15 minutes), so a client cannot try tokens where it may not try passwords.
 */
export function throttleTokenUse<T>(c: AppContext, attempt: () => Promise<T>): Promise<T> {
  return throttled(c, [clientSubject(c)], attempt, isUnknownToken);
}

/** `POST /auth/password`: wrong current passwords count per user and per client. */
export function throttlePasswordCheck<T>(
  c: AppContext,
  userId: string,
  attempt: () => Promise<T>,
): Promise<T> {
  const perUser: Subject = {
    name: `password-check:${userId}`,
    rule: PER_USER_PASSWORD_CHECK,
    onSuccess: "clear",
  };
  return throttled(c, [perUser, clientSubject(c)], attempt);
}

/** Whether another reset mail may go to `email` now (counted; the limiter failing open says yes). */
export async function mayMailReset(c: AppContext, email: string): Promise<boolean> {
  const logFields = { limiter: "password-reset", requestId: c.var.requestId };
  const decisions = await Promise.all([
    consultLimiter(
      c.env,
      `reset-email:${email.toLowerCase()}`,
      (l) => l.hit(RESET_MAILS_PER_EMAIL),
      logFields,
    ),
    consultLimiter(c.env, `reset-ip:${signInClient(c)}`, (l) => l.hit(RESET_MAILS_PER_CLIENT), logFields),
  ]);
  return decisions.every((decision) => decision?.allowed !== false);
}
