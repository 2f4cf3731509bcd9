<?php

declare(strict_types=1);

namespace Warehouse\Api;

/** 404: no such resource in this tenant. */
class NotFoundException extends WarehouseApiException
{
}
