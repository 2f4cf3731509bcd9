import { Hono } from "hono";
import type { AppEnv } from "../env";
import { APP_CSP, serveAsset } from "../http/static-assets";

// A path whose last segment has an extension names a file (`/app/assets/index-3f2a.js`); any other path
// under /app/ is a page of the single-page app (`/app/products/...`), answered with its index.html.
const FILE = /\/[^/]+\.[a-z0-9]+$/i;

/** The web application at /app/: built files from the Worker's assets, pages fall back to index.html. */
export const webAppRoutes = new Hono<AppEnv>()
  .get("/app", (c) => c.redirect("/app/", 301))
  .get("/app/*", (c) => {
    const path = c.req.path;
    if (!FILE.test(path)) return serveAsset(c, "/app/index.html", { csp: APP_CSP });
    return serveAsset(c, path, { csp: APP_CSP, immutable: path.startsWith("/app/assets/") });
  });
