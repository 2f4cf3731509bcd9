import type { AppContext } from "../env";

/**
 * The web application's pages: scripts, styles and API calls from this origin only (the API is same-origin),
 * no inline script or style, no plugins, no framing, and Trusted Types so that no string reaches a DOM
 * script sink. The app creates no HTML from strings and one script URL only: its service worker's, through the
 * one policy allowed (`service-worker`, web/src/offline/service-worker.ts, which refuses any other URL). The
 * service worker itself is a script of this origin (`worker-src` falls back to `script-src 'self'`).
 */
export const APP_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "require-trusted-types-for 'script'",
  "trusted-types service-worker",
].join("; ");

/** The API reference page: the same, except that its renderer (Scalar) injects style elements at run time. */
export const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

// Content-hashed file names (Vite's output under /app/assets/) never change content: cache them for a year.
const IMMUTABLE = "public, max-age=31536000, immutable";
const REVALIDATE = "no-cache";

/**
 * Serves one file of the Worker's static assets (wrangler.toml [assets], built by scripts/build-web.mjs)
 * with the page's security headers. Conditional requests pass through, so unchanged files answer 304.
 * `Referrer-Policy: no-referrer` keeps invitation and reset tokens in page URLs from leaking to other sites.
 */
export async function serveAsset(
  c: AppContext,
  assetPath: string,
  policy: { csp: string; immutable?: boolean },
): Promise<Response> {
  const asset = await c.env.ASSETS.fetch(new Request(new URL(assetPath, c.req.url), c.req.raw));
  const response = new Response(asset.body, asset);
  const headers = response.headers;
  headers.set("Content-Security-Policy", policy.csp);
  headers.set("X-Content-Type-Options", "nosniff");
  headers.set("Referrer-Policy", "no-referrer");
  headers.set("X-Frame-Options", "DENY");
  headers.set("Cross-Origin-Opener-Policy", "same-origin");
  headers.set("Cross-Origin-Resource-Policy", "same-origin");
  // The camera only for this origin: floor screens read barcodes with it (BarcodeDetector).
  headers.set("Permissions-Policy", "camera=(self), microphone=(), geolocation=(), payment=(), usb=()");
  if (asset.ok || asset.status === 304) {
    headers.set("Cache-Control", policy.immutable ? IMMUTABLE : REVALIDATE);
  }
  return response;
}
