import { createMiddleware } from "hono/factory";
import type { AppEnv, Bindings } from "../env";
import { AppError } from "../http/errors";
import { log } from "../observability/log";

// Every committed development value starts with this marker (see .dev.vars.example).
const DEVELOPMENT_MARKER = "dev-only-";
const SECRETS = ["JWT_SECRET", "PLATFORM_ADMIN_TOKEN", "WEBHOOK_SECRET_KEY"] as const;
const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * Local development: `.dev.vars` says so *and* the request reached the Worker on a loopback address.
 * A deployed Worker is never addressed as localhost, so a deploy that carries ENVIRONMENT=development
 * by mistake still counts as deployed and refuses development secrets.
 */
export function isLocalDevelopment(env: Pick<Bindings, "ENVIRONMENT">, requestUrl: string): boolean {
  return env.ENVIRONMENT === "development" && LOOPBACK_HOSTS.has(new URL(requestUrl).hostname);
}

/**
 * For work outside a request (queue consumers): local development, judged by the secrets themselves. A deploy
 * carrying ENVIRONMENT=development with real secrets is not development; with the development ones it serves no
 * request (so makes no work), see refuseDevelopmentSecrets.
 */
export function runsOnDevelopmentSecrets(env: Bindings): boolean {
  return (
    env.ENVIRONMENT === "development" && SECRETS.every((name) => env[name]?.startsWith(DEVELOPMENT_MARKER))
  );
}

/** The secrets that are missing, too short or still development values, unless this is local development. */
export function unsafeSecrets(env: Bindings, requestUrl: string): string[] {
  if (isLocalDevelopment(env, requestUrl)) return [];
  return SECRETS.filter((name) => {
    const value = env[name];
    return !value || value.startsWith(DEVELOPMENT_MARKER) || value.length < 32;
  });
}

/** A deployed Worker refuses to serve with development secrets (or none). */
export const refuseDevelopmentSecrets = createMiddleware<AppEnv>(async (c, next) => {
  const unsafe = unsafeSecrets(c.env, c.req.url);
  if (unsafe.length > 0) {
    log("error", "refusing to serve: unsafe secrets", { secrets: unsafe });
    throw new AppError("SERVICE_UNAVAILABLE", "Service is not configured", {
      errors: ["Service is not configured: production secrets are missing"],
    });
  }
  await next();
});
