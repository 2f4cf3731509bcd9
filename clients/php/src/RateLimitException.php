<?php

declare(strict_types=1);

namespace Warehouse\Api;

/** 429: the tenant's rate limit; `getRetryAfter()` says when to try again. */
class RateLimitException extends WarehouseApiException
{
}
