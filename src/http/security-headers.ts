import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";

/** Browsers reach this host over HTTPS only, for a year, subdomains included (ignored on plain-HTTP localhost). */
export const HSTS = "max-age=31536000; includeSubDomains";

/**
 * Every answer, the API's and the web application's, errors included: HSTS, so that no later visit goes out over
 * plain HTTP, and `nosniff`, so that a browser never runs a JSON or CSV answer as a script or page. Two headers:
 * Hono's `secureHeaders` would add a dozen meant for pages, and the pages set their own, stricter ones
 * (src/web-app/assets.ts).
 */
export const securityHeaders = createMiddleware<AppEnv>(async (c, next) => {
  await next();
  c.header("Strict-Transport-Security", HSTS);
  c.header("X-Content-Type-Options", "nosniff");
});
