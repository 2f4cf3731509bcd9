<?php

declare(strict_types=1);

namespace Warehouse\Api;

/** 400 or 422: the input was refused; `getErrors()` names each field. */
class ValidationException extends WarehouseApiException
{
}
