/**
 * Every failure of a call: an error answer of the API (its HTTP status, the machine code from
 * `X-Error-Code`, the message and one line per problem) or, with status 0, a network failure or timeout
 * that outlasted the retries (`NETWORK_ERROR`, `TIMEOUT`).
 */
export class WarehouseApiError extends Error {
  override readonly name = "WarehouseApiError";
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

  constructor(init: {
    status: number;
    code: string;
    message: string;
    errors?: string[];
    requestId?: string | null;
    retryAfter?: number | null;
    cause?: unknown;
  }) {
    super(init.message, { cause: init.cause });
    this.status = init.status;
    this.code = init.code;
    this.errors = init.errors ?? [init.message];
    this.requestId = init.requestId ?? null;
    this.retryAfter = init.retryAfter ?? null;
  }
}
