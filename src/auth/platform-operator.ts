import { createMiddleware } from "hono/factory";
import { secretsEqual } from "../crypto/hashing";
import type { AppEnv } from "../env";
import { AppError } from "../http/errors";

/** Platform endpoints: `Authorization: Bearer <PLATFORM_ADMIN_TOKEN>`, compared in constant time. */
export const requirePlatformOperator = createMiddleware<AppEnv>(async (c, next) => {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(c.req.header("authorization") ?? "");
  if (!match?.[1]) {
    throw new AppError("UNAUTHORIZED", "Platform operator token required", {
      headers: { "WWW-Authenticate": 'Bearer realm="warehouse-platform"' },
    });
  }
  if (!(await secretsEqual(match[1], c.env.PLATFORM_ADMIN_TOKEN))) {
    throw new AppError("UNAUTHORIZED", "Invalid platform operator token", {
      headers: { "WWW-Authenticate": 'Bearer realm="warehouse-platform", error="invalid_token"' },
    });
  }
  await next();
});
