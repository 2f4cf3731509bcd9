import { createMiddleware } from "hono/factory";
import { isLocalDevelopment } from "../config/production-guard";
import type { AppContext, AppEnv, Bindings } from "../env";
import type { MoveFault } from "./move-fault";

// Fault injection for the soak (bench/soak.mjs): a request asks for faults in `X-Fault-Inject`, e.g.
// `d1-batch=0.1, d1-statement=0.02, limiter, queue` (or, on `POST /platform/tenants/{id}/move`,
// `move=copying` or `move=verifying`: the move fails in that phase), and the faults that fired are listed in the response's
// `X-Fault-Injected`, so the soak can tell an injected 5xx from a real one. Active only when the Worker runs
// locally in development *and* was started with FAULT_INJECTION=on (`wrangler dev --var FAULT_INJECTION:on`),
// which nothing but the soak sets: no deployed Worker honours the header.

const REQUEST_HEADER = "X-Fault-Inject";
const RESPONSE_HEADER = "X-Fault-Injected";

type FaultKind = "d1-statement" | "d1-batch" | "limiter" | "queue";

interface FaultPlan {
  d1Statement: number;
  d1Batch: number;
  limiter: boolean;
  queue: boolean;
}

/** Whether this Worker honours `X-Fault-Inject` at all. */
export function faultInjectionEnabled(env: Bindings, requestUrl: string): boolean {
  return env.FAULT_INJECTION === "on" && isLocalDevelopment(env, requestUrl);
}

/** The move fault a request asks for, when this Worker honours faults. */
export function moveFaultOf(c: AppContext): MoveFault | undefined {
  const header = c.req.header(REQUEST_HEADER);
  if (!header || !faultInjectionEnabled(c.env, c.req.url)) return undefined;
  const phase = /(?:^|,)\s*move=(copying|verifying)\s*(?:,|$)/.exec(header)?.[1];
  return phase as MoveFault | undefined;
}

function parsePlan(header: string): FaultPlan {
  const plan: FaultPlan = { d1Statement: 0, d1Batch: 0, limiter: false, queue: false };
  for (const part of header.split(",")) {
    const [name, value] = part.split("=").map((s) => s.trim());
    const fraction = Math.min(1, Math.max(0, Number(value ?? 1) || 0));
    if (name === "d1-statement") plan.d1Statement = fraction;
    if (name === "d1-batch") plan.d1Batch = fraction;
    if (name === "limiter") plan.limiter = true;
    if (name === "queue") plan.queue = true;
  }
  return plan;
}

const isD1 = (binding: unknown): binding is D1Database =>
  typeof binding === "object" &&
  binding !== null &&
  typeof (binding as D1Database).prepare === "function" &&
  typeof (binding as D1Database).batch === "function" &&
  typeof (binding as D1Database).exec === "function";

/** A D1 binding whose statements and batches fail (before reaching the database) with the plan's odds. */
function faultyD1(d1: D1Database, plan: FaultPlan, fired: (kind: FaultKind) => void): D1Database {
  const fail = (kind: FaultKind, odds: number) => {
    if (Math.random() >= odds) return;
    fired(kind);
    throw new Error(`D1_ERROR: Network connection lost (injected ${kind} fault)`);
  };
  // A batch needs the binding's own statements: each wrapper remembers the one it wraps.
  const realOf = new WeakMap<D1PreparedStatement, D1PreparedStatement>();
  const statement = (real: D1PreparedStatement): D1PreparedStatement => {
    const wrapped = new Proxy(real, {
      get(target, prop) {
        const value = Reflect.get(target, prop, target);
        if (typeof value !== "function") return value;
        if (prop === "bind") return (...values: unknown[]) => statement(target.bind(...values));
        if (prop === "all" || prop === "run" || prop === "first" || prop === "raw") {
          return async (...args: unknown[]) => {
            fail("d1-statement", plan.d1Statement);
            return value.apply(target, args);
          };
        }
        return value.bind(target);
      },
    });
    realOf.set(wrapped, real);
    return wrapped;
  };
  const faulty = <T extends D1Database | D1DatabaseSession>(database: T): T =>
    new Proxy(database, {
      get(target, prop) {
        if (prop === "prepare") return (query: string) => statement(target.prepare(query));
        if (prop === "batch") {
          return async (statements: D1PreparedStatement[]) => {
            fail("d1-batch", plan.d1Batch);
            return target.batch(statements.map((s) => realOf.get(s) ?? s));
          };
        }
        // A tenant's queries run in a D1 session (src/db/client.ts): its statements fail alike.
        if (prop === "withSession") {
          return (constraint?: string) => faulty((target as D1Database).withSession(constraint));
        }
        const value = Reflect.get(target, prop, target);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
  return faulty(d1);
}

/** A rate-limit namespace whose objects cannot be reached (the limiter must fail open). */
function unreachableLimiter(fired: (kind: FaultKind) => void): Bindings["RATE_LIMITER"] {
  const refuse = () => {
    fired("limiter");
    throw new Error("Durable Object unreachable (injected limiter fault)");
  };
  return new Proxy({} as Bindings["RATE_LIMITER"], {
    get: (_target, prop) =>
      prop === "get" || prop === "getByName"
        ? () => new Proxy({}, { get: () => refuse })
        : (..._args: unknown[]) => ({ toString: () => String(prop) }),
  });
}

/** A queue producer that sends every batch twice, each time in reverse order (at-least-once, unordered). */
function duplicatingQueue(queue: Bindings["WEBHOOK_QUEUE"], fired: (kind: FaultKind) => void) {
  return new Proxy(queue, {
    get(target, prop) {
      if (prop === "sendBatch") {
        return async (messages: Iterable<MessageSendRequest<unknown>>) => {
          const reversed = [...messages].reverse() as Parameters<typeof target.sendBatch>[0] & unknown[];
          fired("queue");
          await target.sendBatch(reversed);
          await target.sendBatch(reversed);
        };
      }
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** The middleware: swaps this request's bindings for faulty ones as `X-Fault-Inject` asks. */
export const injectFaults = createMiddleware<AppEnv>(async (c, next) => {
  const header = c.req.header(REQUEST_HEADER);
  if (!header || !faultInjectionEnabled(c.env, c.req.url)) return next();
  const plan = parsePlan(header);
  const firedKinds = new Map<FaultKind, number>();
  const fired = (kind: FaultKind) => firedKinds.set(kind, (firedKinds.get(kind) ?? 0) + 1);
  const env: Record<string, unknown> = { ...c.env };
  for (const [name, binding] of Object.entries(env)) {
    if (isD1(binding) && (plan.d1Batch > 0 || plan.d1Statement > 0))
      env[name] = faultyD1(binding, plan, fired);
  }
  if (plan.limiter) env.RATE_LIMITER = unreachableLimiter(fired);
  if (plan.queue) env.WEBHOOK_QUEUE = duplicatingQueue(c.env.WEBHOOK_QUEUE, fired);
  c.env = env as unknown as Bindings;
  await next();
  if (firedKinds.size > 0) {
    c.header(RESPONSE_HEADER, [...firedKinds].map(([kind, count]) => `${kind}=${count}`).join(", "));
  }
});
