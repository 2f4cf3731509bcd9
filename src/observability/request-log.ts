import { createMiddleware } from "hono/factory";
import { routePath } from "hono/route";
import type { AppEnv } from "../env";
import { log } from "./log";

/**
 * One log line per API request, written after the answer: what was asked (the route's pattern, never the raw path
 * or query, which may carry tokens), who asked (tenant, credential, merchant), how it ended (status, error code) and
 * what it cost (wall time to the answer, D1 calls, rows and sequential round trips). A streamed answer is logged when
 * its first byte is ready. Bodies, headers and credentials are never logged.
 */
export const logRequest = createMiddleware<AppEnv>(async (c, next) => {
  const started = Date.now();
  await next();
  const { principal, tenant, merchantId, d1Stats } = c.var;
  const status = c.res.status;
  log(status >= 500 ? "error" : "info", "request", {
    requestId: c.var.requestId,
    method: c.req.method,
    route: routePath(c, -1),
    status,
    errorCode: c.res.headers.get("X-Error-Code") ?? undefined,
    durationMs: Date.now() - started,
    tenantId: tenant?.id,
    actor: principal ? `${principal.type}:${principal.id}` : undefined,
    merchantId,
    d1: d1Stats && {
      calls: d1Stats.calls,
      rowsRead: d1Stats.rowsRead,
      rowsWritten: d1Stats.rowsWritten,
      roundTrips: d1Stats.roundTrips.hops,
    },
  });
});
