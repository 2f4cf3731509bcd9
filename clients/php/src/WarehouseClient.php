<?php

declare(strict_types=1);

namespace Warehouse\Api;

use Warehouse\Api\Generated\Job;
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
    private readonly JobFiles $files;

    public function __construct(array $config)
    {
        $transport = new Transport($config);
        parent::__construct($transport);
        $this->files = new JobFiles($transport, $this->jobs);
    }

    /**
     * Uploads a file (CSV or NDJSON), imports it as a job and waits for the job to end (JobFiles).
     *
     * @param 'product_import'|'stock_import' $type
     * @param array{content_type?: 'text/csv'|'application/x-ndjson', filename?: string, options?: array<string, mixed>, poll_interval?: float, wait_timeout?: float} $options
     */
    public function importFile(string $type, string $file, array $options = []): Job
    {
        return $this->files->importFile($type, $file, $options);
    }

    /**
     * Reads a job until it has ended and returns it.
     *
     * @param array{poll_interval?: float, wait_timeout?: float} $options
     */
    public function waitForJob(string $id, array $options = []): Job
    {
        return $this->files->waitForJob($id, $options);
    }

    /** A succeeded job's file as text: an export's CSV, or an import's error report. */
    public function jobResult(string $id): string
    {
        return $this->files->jobResult($id);
    }
}
