import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";
import { D1Stats } from "./d1-stats";

/** Counts the request's D1 work; in development it is reported in `X-D1-Stats` for benchmarks. */
export const trackD1Stats = createMiddleware<AppEnv>(async (c, next) => {
  const stats = new D1Stats();
  c.set("d1Stats", stats);
  await next();
  if (c.env.ENVIRONMENT === "development") c.header("X-D1-Stats", stats.toHeader());
});
