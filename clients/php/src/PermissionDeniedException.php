<?php

declare(strict_types=1);

namespace Warehouse\Api;

/** 403: the credential lacks a scope, the IP is not allowed, or the tenant is not accessible. */
class PermissionDeniedException extends WarehouseApiException
{
}
