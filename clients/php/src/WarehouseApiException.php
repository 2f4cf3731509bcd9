<?php

declare(strict_types=1);

namespace Warehouse\Api;

/**
 * Every failure of a call: an error answer of the API (its HTTP status, the machine code from `X-Error-Code`, the
 * message and one line per problem) or, with status 0, a network failure or timeout that outlasted the retries
 * (codes `NETWORK_ERROR`, `TIMEOUT`).
 */
final class WarehouseApiException extends \RuntimeException
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
}
