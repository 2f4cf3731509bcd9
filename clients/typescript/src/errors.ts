/**
 * Every failure of a call is a `WarehouseApiError`, or one of its subclasses by status: catch the base for
 * everything, a subclass for one case. An error answer carries its HTTP status, the machine code from
 * `X-Error-Code`, the message, one line per problem and the request id; a failure without an answer
 * (`ApiConnectionError`, `ApiTimeoutError`) has status 0.
 */
export class WarehouseApiError extends Error {
  override name = "WarehouseApiError";
  /** The HTTP status; 0 when no response arrived. */
  readonly status: number;
  /** The machine-readable code (`X-Error-Code`), e.g. `NOT_FOUND`, `VALIDATION_FAILED`, `RATE_LIMITED`. */
  readonly code: string;
  /** One message per problem, e.g. `sku: SKU is required`. */
  readonly errors: string[];
  /** The server's `X-Request-Id`: quote it when asking for support. */
  readonly requestId: string | null;
  /** Seconds the server asked to wait (`Retry-After`), when it said. */
  readonly retryAfter: number | null;

  constructor(init: ErrorInit) {
    super(init.message, { cause: init.cause });
    this.status = init.status;
    this.code = init.code;
    this.errors = init.errors ?? [init.message];
    this.requestId = init.requestId ?? null;
    this.retryAfter = init.retryAfter ?? null;
  }

  /** `NotFoundError: 404 NOT_FOUND: Product not found [id: no such product] (request id 0f3c...)`. */
  override toString(): string {
    return describe(this.name, this);
  }
}

export type ErrorInit = {
  status: number;
  code: string;
  message: string;
  errors?: string[];
  requestId?: string | null;
  retryAfter?: number | null;
  cause?: unknown;
};

/** One line with everything a support request needs; the field errors only when they add to the message. */
export function describe(
  name: string,
  e: { status: number; code: string; message: string; errors: string[]; requestId: string | null },
): string {
  const details = e.errors.filter((line) => line !== e.message);
  return [
    `${name}: ${e.status} ${e.code}: ${e.message}`,
    details.length > 0 ? ` [${details.join("; ")}]` : "",
    e.requestId ? ` (request id ${e.requestId})` : "",
  ].join("");
}

/** 401: the credential is missing, malformed, expired or revoked. */
export class AuthenticationError extends WarehouseApiError {
  override name = "AuthenticationError";
}
/** 403: the credential lacks a scope, the IP is not allowed, or the tenant is not accessible. */
export class PermissionDeniedError extends WarehouseApiError {
  override name = "PermissionDeniedError";
}
/** 404: no such resource in this tenant. */
export class NotFoundError extends WarehouseApiError {
  override name = "NotFoundError";
}
/** 409: the request conflicts with the current state (a duplicate SKU, a status change out of order...). */
export class ConflictError extends WarehouseApiError {
  override name = "ConflictError";
}
/** 400 or 422: the input was refused; `errors` names each field. */
export class ValidationError extends WarehouseApiError {
  override name = "ValidationError";
}
/** 429: the tenant's rate limit; `retryAfter` says when to try again. */
export class RateLimitError extends WarehouseApiError {
  override name = "RateLimitError";
}
/** 5xx: the server failed or is unavailable. */
export class ServerError extends WarehouseApiError {
  override name = "ServerError";
}
/** No answer: the connection failed (status 0, code `NETWORK_ERROR`). */
export class ApiConnectionError extends WarehouseApiError {
  override name = "ApiConnectionError";
}
/** No answer before the call's deadline or the attempt's timeout (status 0, code `TIMEOUT`). */
export class ApiTimeoutError extends ApiConnectionError {
  override name = "ApiTimeoutError";
}

/** The subclass of an error answer's status. */
export function errorForStatus(init: ErrorInit): WarehouseApiError {
  const { status } = init;
  if (status === 401) return new AuthenticationError(init);
  if (status === 403) return new PermissionDeniedError(init);
  if (status === 404) return new NotFoundError(init);
  if (status === 409) return new ConflictError(init);
  if (status === 400 || status === 422) return new ValidationError(init);
  if (status === 429) return new RateLimitError(init);
  if (status >= 500) return new ServerError(init);
  return new WarehouseApiError(init);
}
