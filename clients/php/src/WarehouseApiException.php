<?php

declare(strict_types=1);

namespace Warehouse\Api;

/**
 * Every failure of a call; catch a subclass for one case. An error answer of the API carries its HTTP status, the
 * machine code from `X-Error-Code`, the message, one line per problem and the request id; a failure without an
 * answer (`ApiConnectionException`, `ApiTimeoutException`) has status 0 and code `NETWORK_ERROR` or `TIMEOUT`.
 */
class WarehouseApiException extends \RuntimeException
{
    /** @param list<string> $errors */
    public function __construct(
        private readonly int $status,
        private readonly string $errorCode,
        string $message,
        private readonly array $errors = [],
        private readonly ?string $requestId = null,
        private readonly ?float $retryAfter = null,
        ?\Throwable $previous = null,
    ) {
        parent::__construct($message, 0, $previous);
    }

    /** The HTTP status; 0 when no response arrived. */
    public function getStatus(): int
    {
        return $this->status;
    }

    /** The machine-readable code (`X-Error-Code`): `NOT_FOUND`, `VALIDATION_FAILED`, `RATE_LIMITED`... */
    public function getErrorCode(): string
    {
        return $this->errorCode;
    }

    /** @return list<string> one message per problem, e.g. `sku: SKU is required` */
    public function getErrors(): array
    {
        return $this->errors === [] ? [$this->getMessage()] : $this->errors;
    }

    /** The server's `X-Request-Id`: quote it when asking for support. */
    public function getRequestId(): ?string
    {
        return $this->requestId;
    }

    /** Seconds the server asked to wait (`Retry-After`), when it said. */
    public function getRetryAfter(): ?float
    {
        return $this->retryAfter;
    }

    /** `400 VALIDATION_FAILED: Validation failed [sku: SKU is required] (request id 0f3c...)`. */
    public function summary(): string
    {
        $details = array_values(array_filter($this->getErrors(), fn (string $line): bool => $line !== $this->getMessage()));
        return "{$this->status} {$this->errorCode}: {$this->getMessage()}"
            . ($details === [] ? '' : ' [' . implode('; ', $details) . ']')
            . ($this->requestId === null ? '' : " (request id {$this->requestId})");
    }

    public function __toString(): string
    {
        return static::class . ': ' . $this->summary() . "\nStack trace:\n" . $this->getTraceAsString();
    }

    /**
     * The subclass of an error answer's status.
     *
     * @param list<string> $errors
     */
    public static function forStatus(int $status, string $code, string $message, array $errors, ?string $requestId, ?float $retryAfter): self
    {
        $class = match (true) {
            $status === 401 => AuthenticationException::class,
            $status === 403 => PermissionDeniedException::class,
            $status === 404 => NotFoundException::class,
            $status === 409 => ConflictException::class,
            $status === 400, $status === 422 => ValidationException::class,
            $status === 429 => RateLimitException::class,
            $status >= 500 => ServerException::class,
            default => self::class,
        };
        return new $class($status, $code, $message, $errors, $requestId, $retryAfter);
    }
}
