import type { AppContext } from "../env";

/**
 * A page of the web app with a one-time token: `<origin>/app/<page>?token=...`. The origin is APP_ORIGIN
 * when set, else the request's own (Cloudflare routes only the Worker's own host names to it, so a
 * forged Host header cannot point a mailed link at another site).
 */
export function appLink(c: AppContext, page: "accept-invitation" | "reset-password", token: string): string {
  const origin = c.env.APP_ORIGIN ?? new URL(c.req.url).origin;
  return `${origin}/app/${page}?token=${encodeURIComponent(token)}`;
}
