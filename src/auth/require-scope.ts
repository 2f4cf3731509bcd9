import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";
import { AppError } from "../http/errors";
import { grants, type Scope } from "./scopes";

/**
 * Every one of `needed` must be granted; the 403 names the ones missing. A credential acting for one merchant
 * never administers the tenant: it passes an `admin` route only where `forMerchants` says so (webhooks), and no
 * route where `forMerchants` is false (billing writes).
 */
export function requireScope(needed: readonly Scope[], forMerchants?: boolean) {
  return createMiddleware<AppEnv>(async (c, next) => {
    if (c.var.merchantId && (forMerchants === false || (needed.includes("admin") && !forMerchants))) {
      throw new AppError("FORBIDDEN", "A credential acting for one merchant cannot administer the tenant");
    }
    const missing = needed.filter((scope) => !grants(c.var.scopes, scope));
    if (missing.length > 0) {
      const plural = missing.length > 1 ? "s" : "";
      throw new AppError("FORBIDDEN", `This request needs the ${missing.join(" and ")} scope${plural}`);
    }
    await next();
  });
}
