import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";
import { fanOutNow } from "../webhook-delivery/fan-out-now";

/**
 * The one place a request's events leave it: after the handler, if the response is a success, every event its
 * batches committed for a subscription (one nobody wanted is stored done, src/outbox/outbox.ts) goes to the
 * webhooks, the first few fanned out and attempted by this request itself, the rest
 * through the queue (fan-out-now.ts), without delaying the response. A failed response hands off nothing;
 * an event committed before the failure is picked up by the cron sweep.
 */
export const handOffCommittedEvents = createMiddleware<AppEnv>(async (c, next) => {
  await next();
  const tdb = c.var.tenantDb;
  if (c.res.ok && tdb.committedEvents.length > 0) {
    c.executionCtx.waitUntil(fanOutNow(c.env, tdb, tdb.committedEvents.splice(0)));
  }
});
