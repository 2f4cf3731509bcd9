import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";

// A caller's id is echoed only when it is a short, printable token, so it is safe in logs and headers.
const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export const requestId = createMiddleware<AppEnv>(async (c, next) => {
  const incoming = c.req.header("x-request-id");
  const id = incoming && SANE_REQUEST_ID.test(incoming) ? incoming : crypto.randomUUID();
  c.set("requestId", id);
  c.header("X-Request-Id", id);
  await next();
});
