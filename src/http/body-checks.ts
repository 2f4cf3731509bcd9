import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";
import { limitBodySize } from "./body-limit";
import { refuseControlCharacters } from "./control-characters";

/**
 * The checks of a body read whole (at most 1 MiB, no control characters), on every path but `streamed`, whose
 * body is streamed rather than read (an upload: its rows are checked when a job imports them). A plain
 * comparison: Hono's `except` combinator matched the path with a router of its own and wrapped the rest of the
 * request in its try/await, about 0.5 ms of CPU per request (bench/profile.mjs, issue #35).
 */
export const checkBodiesExcept = (streamed: string) =>
  createMiddleware<AppEnv>(async (c, next) => {
    if (c.req.path === streamed) return next();
    await limitBodySize(c, async () => {
      await refuseControlCharacters(c, next);
    });
  });
