import { cors } from "hono/cors";

/**
 * Browser clients (scanner web apps, shop back offices) may call the API from any origin: every
 * credential is an explicit header (never a cookie), so no ambient authority leaks to other sites.
 * The headers a client needs to read are exposed.
 */
export const allowBrowserClients = cors({
  origin: "*",
  allowMethods: ["GET", "POST", "PUT", "PATCH", "DELETE"],
  allowHeaders: [
    "Authorization",
    "X-API-Key",
    "X-Tenant-Id",
    "Content-Type",
    "Idempotency-Key",
    "If-Match",
    "X-Request-Id",
    "Consistency-Token",
  ],
  exposeHeaders: [
    "X-Request-Id",
    "X-Error-Code",
    "ETag",
    "Location",
    "Retry-After",
    "Idempotent-Replayed",
    "X-RateLimit-Limit",
    "X-RateLimit-Remaining",
    "X-RateLimit-Reset",
    "RateLimit",
    "RateLimit-Policy",
    "Content-Disposition",
    "Consistency-Token",
  ],
  maxAge: 86_400,
});
