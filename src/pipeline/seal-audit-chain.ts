import { createMiddleware } from "hono/factory";
import { sealChain } from "../db/audit/chain";
import type { AppEnv } from "../env";
import { log } from "../observability/log";

/**
 * After the response, seals the audit entries the request wrote into their chains (src/db/audit/chain.ts), off the
 * response's path. One that fails (the Worker ends first) is sealed by the next seal or read of that chain.
 */
export const sealAuditChains = createMiddleware<AppEnv>(async (c, next) => {
  await next();
  const written = c.get("auditActor")?.written;
  if (!written?.size) return;
  const requestId = c.get("requestId");
  c.executionCtx.waitUntil(
    Promise.all([...written].map((handle) => sealChain(handle))).catch((error: unknown) =>
      log("warn", "audit seal deferred", {
        requestId,
        error: error instanceof Error ? error.message : String(error),
      }),
    ),
  );
});
