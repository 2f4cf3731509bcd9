import type { ErrorHandler } from "hono";
import { HTTPException } from "hono/http-exception";
import type { AppEnv } from "../env";
import { log } from "../observability/log";
import { errorBody } from "./envelope";
import { AppError, errorCodeForStatus } from "./errors";

/** The one place where a thrown error becomes a status and an envelope. */
export const handleError: ErrorHandler<AppEnv> = (err, c) => {
  const requestId = c.get("requestId") ?? "unknown";
  if (err instanceof AppError) {
    for (const [name, value] of Object.entries(err.headers)) c.header(name, value);
    c.header("X-Error-Code", err.code);
    return c.json(errorBody(err.message, err.errors), err.status);
  }
  if (err instanceof HTTPException) {
    // Raised by hono itself: malformed JSON (400), unsupported media type (415).
    const status = err.status;
    const message = status === 415 ? "Content-Type must be application/json" : err.message || "Bad request";
    c.header("X-Error-Code", errorCodeForStatus(status));
    return c.json(errorBody(message, [message]), status);
  }
  // Unexpected: log everything, return nothing internal.
  log("error", "unhandled error", {
    requestId,
    method: c.req.method,
    path: c.req.path,
    error: err instanceof Error ? err.message : String(err),
    stack: err instanceof Error ? err.stack : undefined,
  });
  const message = `Internal server error (request id ${requestId})`;
  c.header("X-Error-Code", "INTERNAL");
  return c.json(errorBody(message, [message]), 500);
};
