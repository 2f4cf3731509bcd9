import { createMiddleware } from "hono/factory";
import type { Plan } from "../auth/tenant-record";
import type { AppEnv } from "../env";
import { AppError } from "../http/errors";
import { rateLimitHeaders } from "./headers";
import { admit, leaseCallsSoFar } from "./leased-admission";

/** Requests per rolling minute by plan; Enterprise is never counted (no object call, no headers). */
const requestsPerMinute: Record<Plan, number | undefined> = {
  starter: 60,
  business: 300,
  enterprise: undefined,
};
const WINDOW_MS = 60_000;

/**
 * Counts the request against its tenant's plan budget, shared by all the tenant's keys and users.
 * The plan is read from the tenant resolved for this very request, so a plan change applies at once
 * (a lease granted under another plan is dropped). Most requests are admitted against this isolate's
 * lease with no call (`leased-admission.ts`). The headers are set after the rest of the chain ran, so
 * they land on error responses too.
 */
export const rateLimit = createMiddleware<AppEnv>(async (c, next) => {
  const tenant = c.var.tenant;
  const limit = requestsPerMinute[tenant.plan];
  if (limit === undefined) return next();
  const decision = await admit(
    c,
    `tenant:${tenant.id}`,
    { limit, windowMs: WINDOW_MS },
    { limiter: "tenant", tenantId: tenant.id },
  );
  if (c.env.ENVIRONMENT === "development") c.header("X-Limiter-Calls", String(leaseCallsSoFar()));
  if (!decision) return next();
  const headers = rateLimitHeaders(decision, tenant.plan);
  if (!decision.allowed) {
    throw new AppError(
      "RATE_LIMITED",
      `Rate limit exceeded: the ${tenant.plan} plan allows ${limit} requests per minute; retry in ${decision.retryAfter} s`,
      { headers },
    );
  }
  await next();
  for (const [name, value] of Object.entries(headers)) c.header(name, value);
});
