<?php

declare(strict_types=1);

namespace Warehouse\Api;

/** 5xx: the server failed or is unavailable. */
class ServerException extends WarehouseApiException
{
}
