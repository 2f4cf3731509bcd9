<?php

declare(strict_types=1);

namespace Warehouse\Api;

use Warehouse\Api\Resources\Resources;

/**
 * The Warehouse Management API: one property per resource group (`products`, `inventory`, `orders`...), one
 * method per operation, each returning the envelope's `data` (a `Page` for lists) or throwing
 * `WarehouseApiException`.
 *
 * Configuration: `base_url`, then `api_key`, or `email` + `password` (+ `tenant_id`): the client logs in, refreshes
 * the access token `refresh_before_expiry` seconds (60) before it expires and keeps the rotated refresh token.
 * `platform_token` is for `$client->platform`. `timeout` (seconds per attempt, 30), `max_retries` (3).
 */
final class WarehouseClient extends Resources
{
    /** @param array{base_url: string, api_key?: string, email?: string, password?: string, tenant_id?: string, platform_token?: string, timeout?: float, max_retries?: int, refresh_before_expiry?: float} $config */
    public function __construct(array $config)
    {
        parent::__construct(new Transport($config));
    }
}
