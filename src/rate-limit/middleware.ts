import { createMiddleware } from "hono/factory";
import type { Plan } from "../auth/tenant";
import type { AppEnv } from "../env";
import { AppError } from "../http/errors";
import { rateLimitHeaders } from "./headers";
import { consultLimiter } from "./limiter-client";
import { cachedRefusal, rememberRefusal } from "./refusal-cache";

/** Requests per rolling minute by plan; Enterprise is never counted (no object call, no headers). */
const requestsPerMinute: Record<Plan, number | undefined> = {
  starter: 60,
  business: 300,
  enterprise: undefined,
};
const WINDOW_MS = 60_000;

/**
 * Counts the request against its tenant's plan budget, shared by all the tenant's keys and users.
 * The plan is read from the tenant resolved for this very request, so a plan change applies at once.
 * The headers are set after the rest of the chain ran, so they land on error responses too. While a
 * refusal is known to hold, it is answered without calling the object (a flood costs the object nothing).
 */
export const rateLimit = createMiddleware<AppEnv>(async (c, next) => {
  const tenant = c.var.tenant;
  const limit = requestsPerMinute[tenant.plan];
  if (limit === undefined) return next();
  const subject = `tenant:${tenant.id}`;
  const decision =
    cachedRefusal(subject, limit, Date.now()) ??
    (await consultLimiter(c.env, subject, (limiter) => limiter.hit({ limit, windowMs: WINDOW_MS }), {
      limiter: "tenant",
      tenantId: tenant.id,
      requestId: c.var.requestId,
    }));
  if (!decision) return next();
  const headers = rateLimitHeaders(decision, tenant.plan);
  if (!decision.allowed) {
    rememberRefusal(subject, decision);
    throw new AppError(
      "RATE_LIMITED",
      `Rate limit exceeded: the ${tenant.plan} plan allows ${limit} requests per minute; retry in ${decision.retryAfter} s`,
      { headers },
    );
  }
  await next();
  for (const [name, value] of Object.entries(headers)) c.header(name, value);
});
