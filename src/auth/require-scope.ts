import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";
import { AppError } from "../http/errors";
import { grants, type Scope } from "./scopes";

/** Every one of `needed` must be granted; the 403 names the ones missing. */
export function requireScope(...needed: Scope[]) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const missing = needed.filter((scope) => !grants(c.var.scopes, scope));
    if (missing.length > 0) {
      const plural = missing.length > 1 ? "s" : "";
      throw new AppError("FORBIDDEN", `This request needs the ${missing.join(" and ")} scope${plural}`);
    }
    await next();
  });
}
