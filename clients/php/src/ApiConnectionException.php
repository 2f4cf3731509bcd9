<?php

declare(strict_types=1);

namespace Warehouse\Api;

/** No answer: the connection failed (status 0, code `NETWORK_ERROR`). */
class ApiConnectionException extends WarehouseApiException
{
}
