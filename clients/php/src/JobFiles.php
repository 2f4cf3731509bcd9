<?php

declare(strict_types=1);

namespace Warehouse\Api;

use Warehouse\Api\Generated\Job;
use Warehouse\Api\Generated\JobStatus;
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

    private const ENDED = [JobStatus::Succeeded, JobStatus::Failed, JobStatus::Cancelled];

    public function __construct(private readonly Transport $transport, private readonly JobsResource $jobs)
    {
    }

    /**
     * Uploads `$file` (CSV with a header row, or NDJSON), imports it as a `$type` job, waits for the job to end and
     * returns it: `status`, `processed`, `failed` and the first failing rows with their lines.
     *
     * @param 'product_import'|'stock_import' $type
     * @param array{content_type?: 'text/csv'|'application/x-ndjson', filename?: string, options?: array<string, mixed>, poll_interval?: float, wait_timeout?: float} $options
     */
    public function importFile(string $type, string $file, array $options = []): Job
    {
        $upload = $this->transport->call(
            'createUpload',
            query: isset($options['filename']) ? ['filename' => $options['filename']] : [],
            body: $file,
            headers: ['Content-Type' => $options['content_type'] ?? 'text/csv'],
        );
        $body = ['type' => $type, 'uploadId' => $upload['id'], 'options' => $options['options'] ?? new \stdClass()];
        return $this->waitForJob($this->jobs->create($body)->id, $options);
    }

    /**
     * Reads the job until it has ended (succeeded, failed or cancelled) and returns it.
     *
     * @param array{poll_interval?: float, wait_timeout?: float} $options
     */
    public function waitForJob(string $id, array $options = []): Job
    {
        $deadline = microtime(true) + (float) ($options['wait_timeout'] ?? 1800.0);
        while (true) {
            $job = $this->jobs->get($id);
            if (in_array($job->status, self::ENDED, true)) {
                return $job;
            }
            if (microtime(true) > $deadline) {
                throw new \RuntimeException("job {$id} is still {$job->status?->value}");
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
