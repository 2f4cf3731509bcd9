<?php

declare(strict_types=1);

namespace Warehouse\Api;

use Warehouse\Api\Resources\JobsResource;

/**
 * Imports from a file, hand-written beside the generated operations: the upload's body is the file itself (not JSON)
 * and a job's result is a CSV file, so these two calls are sent here; the job in between is the generated
 * `jobs->create` and `jobs->get`. The same helpers in every client (docs/decisions/jobs.md).
 */
final class JobFiles
{
    /** The two operations the generated table omits (clients/naming.json), as the transport reads them. */
    public const OPERATIONS = [
        'createUpload' => ['POST', '/api/v1/uploads', 'tenant', 'refused-only'],
        'getJobResult' => ['GET', '/api/v1/jobs/{id}/result', 'tenant', 'safe'],
    ];

    private const ENDED = ['succeeded', 'failed', 'cancelled'];

    public function __construct(private readonly Transport $transport, private readonly JobsResource $jobs)
    {
    }

    /**
     * Uploads `$file` (CSV with a header row, or NDJSON), imports it as a `$type` job, waits for the job to end and
     * returns it: `status`, `processed`, `failed` and the first failing rows with their lines.
     *
     * @param 'product_import'|'stock_import' $type
     * @param array{content_type?: 'text/csv'|'application/x-ndjson', filename?: string, options?: array<string, mixed>, poll_interval?: float, wait_timeout?: float} $options
     * @return array<string, mixed>
     */
    public function importFile(string $type, string $file, array $options = []): array
    {
        $upload = $this->transport->call(
            'createUpload',
            query: isset($options['filename']) ? ['filename' => $options['filename']] : [],
            body: $file,
            headers: ['Content-Type' => $options['content_type'] ?? 'text/csv'],
        );
        $body = ['type' => $type, 'uploadId' => $upload['id'], 'options' => $options['options'] ?? new \stdClass()];
        $job = $this->jobs->create($body);
        return $this->waitForJob($job['id'], $options);
    }

    /**
     * Reads the job until it has ended (succeeded, failed or cancelled) and returns it.
     *
     * @param array{poll_interval?: float, wait_timeout?: float} $options
     * @return array<string, mixed>
     */
    public function waitForJob(string $id, array $options = []): array
    {
        $deadline = microtime(true) + (float) ($options['wait_timeout'] ?? 1800.0);
        while (true) {
            $job = $this->jobs->get($id);
            if (in_array($job['status'], self::ENDED, true)) {
                return $job;
            }
            if (microtime(true) > $deadline) {
                throw new \RuntimeException("job {$id} is still {$job['status']}");
            }
            usleep((int) (((float) ($options['poll_interval'] ?? 1.0)) * 1_000_000));
        }
    }

    /** A succeeded job's file as text: an export's CSV, or an import's error report (`line,errors`). */
    public function jobResult(string $id): string
    {
        return $this->transport->call('getJobResult', path: [$id], csv: true);
    }
}
