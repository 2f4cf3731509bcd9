import type { Hono, NotFoundHandler } from "hono";
import type { AppEnv } from "../env";
import { handleError } from "./error-handler";
import { AppError } from "./errors";

type RoutePattern = { method: string; pattern: RegExp };

function compile(path: string): RegExp {
  const source = path
    .split("/")
    .map((part) => (part.startsWith(":") ? "[^/]+" : part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
    .join("/");
  return new RegExp(`^${source}/?$`);
}

/**
 * Unknown route -> 404; a known path with another method -> 405 with `Allow`.
 * The route table is compiled once, on the first miss.
 */
export function notFoundOrMethodNotAllowed(app: Hono<AppEnv>): NotFoundHandler<AppEnv> {
  let routes: RoutePattern[] | undefined;
  return (c) => {
    routes ??= app.routes
      .filter((route) => route.method !== "ALL")
      .map((route) => ({ method: route.method, pattern: compile(route.path) }));
    const allowed = [...new Set(routes.filter((r) => r.pattern.test(c.req.path)).map((r) => r.method))];
    if (allowed.length > 0) {
      if (allowed.includes("GET")) allowed.push("HEAD");
      const error = new AppError(
        "METHOD_NOT_ALLOWED",
        `Method ${c.req.method} is not allowed on ${c.req.path}`,
        {
          headers: { Allow: allowed.join(", ") },
        },
      );
      return handleError(error, c);
    }
    return handleError(new AppError("NOT_FOUND", `No route for ${c.req.method} ${c.req.path}`), c);
  };
}
