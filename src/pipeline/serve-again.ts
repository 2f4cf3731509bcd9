import type { Hono } from "hono";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";

/** A request on its second run: this time authentication waits for the API key's own lookup. */
class SecondRun extends Request {}

/**
 * Where requests enter. A read (or a gated write, before it writes) with an API key this isolate has seen runs
 * on the key's remembered view while the key's own lookup runs alongside (src/auth/authenticate.ts); when the
 * lookup then contradicts that view,
 * refuses the key or fails, the first run's response is discarded whole and the request served once more,
 * waiting for its lookup: nothing the guess produced (another view's rate-limit headers, a refusal's
 * Retry-After) reaches the client.
 */
export const serveAgainOnChangedKeyView = (app: Pick<Hono<AppEnv>, "fetch">) =>
  createMiddleware<AppEnv>(async (c, next) => {
    c.set("keyView", { mayGuess: !(c.req.raw instanceof SecondRun), contradicted: false });
    // The bindings as they arrived: later steps may replace c.env (the soak's fault injection wraps D1).
    const env = c.env;
    await next();
    if (!c.var.keyView.contradicted) return;
    await c.res.body?.cancel();
    // A write's body was read by the first run (src/http/control-characters.ts caches its text): sent again.
    const request = c.req.raw.bodyUsed
      ? new SecondRun(c.req.raw, { body: await c.req.text() })
      : new SecondRun(c.req.raw);
    const again = await app.fetch(request, env, c.executionCtx);
    c.res = undefined; // replaced, not merged: the first run's headers must not survive
    c.res = again;
  });
