<?php

declare(strict_types=1);

namespace Warehouse\Api;

/** 401: the credential is missing, malformed, expired or revoked. */
class AuthenticationException extends WarehouseApiException
{
}
