import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";
import { AppError } from "../http/errors";
import { grants, type Scope } from "./scopes";

export function requireScope(scope: Scope) {
  return createMiddleware<AppEnv>(async (c, next) => {
    if (!grants(c.var.scopes, scope)) {
      throw new AppError("FORBIDDEN", `This request needs the ${scope} scope`);
    }
    await next();
  });
}
