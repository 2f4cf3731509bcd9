<?php

declare(strict_types=1);

namespace Warehouse\Api;

/** No answer before the call's deadline or the attempt's timeout (status 0, code `TIMEOUT`). */
class ApiTimeoutException extends ApiConnectionException
{
}
