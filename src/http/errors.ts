import type { ContentfulStatusCode } from "hono/utils/http-status";

/** Machine-readable error codes; the status each maps to lives only here. */
const statusByCode = {
  VALIDATION_FAILED: 400,
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  GONE: 410,
  PRECONDITION_FAILED: 412,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  UNPROCESSABLE: 422,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  BAD_GATEWAY: 502,
  SERVICE_UNAVAILABLE: 503,
} as const satisfies Record<string, ContentfulStatusCode>;

export type ErrorCode = keyof typeof statusByCode;
export const errorCodes = Object.keys(statusByCode) as ErrorCode[];

/** A failure the client can act on. Thrown anywhere; turned into a response by the one error handler. */
export class AppError extends Error {
  readonly status: ContentfulStatusCode;
  readonly errors: string[];
  readonly headers: Record<string, string>;

  constructor(
    readonly code: ErrorCode,
    message: string,
    options: { errors?: string[]; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.status = statusByCode[code];
    this.errors = options.errors?.length ? options.errors : [message];
    this.headers = options.headers ?? {};
  }
}

export function errorCodeForStatus(status: number): ErrorCode {
  const match = errorCodes.find((code) => statusByCode[code] === status);
  return match ?? (status >= 500 ? "INTERNAL" : "BAD_REQUEST");
}

export const notFound = (what: string) => new AppError("NOT_FOUND", `${what} not found`);

/** `field: what <id> not found` for each of `ids` that is not among `found`. */
export const missingAmong = (
  field: string,
  what: string,
  ids: readonly string[],
  found: readonly { id: string }[],
) => ids.filter((id) => !found.some((f) => f.id === id)).map((id) => `${field}: ${what} ${id} not found`);

/** 404 naming every missing thing a request names, when there is any: the one message, or "Not found". */
export function assertFound(missing: readonly string[]): void {
  if (missing.length === 0) return;
  throw new AppError("NOT_FOUND", missing.length === 1 ? (missing[0] as string) : "Not found", {
    errors: [...missing],
  });
}
export const conflict = (message: string, errors?: string[]) =>
  new AppError("CONFLICT", message, errors ? { errors } : {});
