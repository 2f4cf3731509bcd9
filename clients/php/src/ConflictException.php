<?php

declare(strict_types=1);

namespace Warehouse\Api;

/** 409: the request conflicts with the current state (a duplicate SKU, a status change out of order...). */
class ConflictException extends WarehouseApiException
{
}
