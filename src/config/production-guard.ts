import { createMiddleware } from "hono/factory";
import type { AppEnv, Bindings } from "../env";
import { AppError } from "../http/errors";

// Every committed development value starts with this marker (see wrangler.toml [vars]).
const DEVELOPMENT_MARKER = "dev-only-";
const SECRETS = ["JWT_SECRET", "PLATFORM_ADMIN_TOKEN", "WEBHOOK_SECRET_KEY"] as const;

/** The secrets that are missing or still hold development values, outside development. */
export function unsafeSecrets(env: Bindings): string[] {
  if (env.ENVIRONMENT === "development") return [];
  return SECRETS.filter((name) => {
    const value = env[name];
    return !value || value.startsWith(DEVELOPMENT_MARKER) || value.length < 32;
  });
}

/** A deployed Worker refuses to serve with development secrets (or none). */
export const refuseDevelopmentSecrets = createMiddleware<AppEnv>(async (c, next) => {
  const unsafe = unsafeSecrets(c.env);
  if (unsafe.length > 0) {
    console.error(
      JSON.stringify({ level: "error", msg: "refusing to serve: unsafe secrets", secrets: unsafe }),
    );
    throw new AppError("SERVICE_UNAVAILABLE", "Service is not configured", {
      errors: ["Service is not configured: production secrets are missing"],
    });
  }
  await next();
});
