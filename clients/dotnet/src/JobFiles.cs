using System;
using System.Collections.Generic;
using System.Threading;
using System.Threading.Tasks;
using Warehouse.Api.Models;

namespace Warehouse.Api
{
    // Imports from a file, hand-written beside the generated operations: the upload's body is the file itself (not
    // JSON) and a job's result is a CSV file, so these two calls are sent here; the job in between is the generated
    // Jobs.CreateAsync and Jobs.GetAsync. The same helpers in every client (docs/decisions/jobs.md).
    public sealed partial class WarehouseClient
    {
        private static readonly Operation CreateUpload = new Operation("createUpload", "POST", "/api/v1/uploads", "tenant", "refused-only");
        private static readonly Operation GetJobResult = new Operation("getJobResult", "GET", "/api/v1/jobs/{id}/result", "tenant", "safe");

        /// <summary>
        /// Uploads <paramref name="file"/> (CSV with a header row, or NDJSON with <c>contentType</c>
        /// <c>application/x-ndjson</c>), imports it as a <paramref name="type"/> job, waits for the job to end and
        /// returns it: <c>Status</c>, <c>Processed</c>, <c>Failed</c> and the first failing rows with their lines.
        /// </summary>
        public async Task<Job> ImportFileAsync(JobType type, string file, string contentType = "text/csv", JobOptions options = null,
            TimeSpan? pollInterval = null, TimeSpan? waitTimeout = null, CancellationToken cancellationToken = default(CancellationToken))
        {
            var data = await _transport.DataAsync(CreateUpload, new string[0], null, file,
                new Dictionary<string, string> { { "Content-Type", contentType } }, null, cancellationToken).ConfigureAwait(false);
            var upload = Upload.FromJson(data as JsonObject);
            var job = await Jobs.CreateAsync(new CreateJobRequest { Type = type, UploadId = upload.Id, Options = options ?? new JobOptions() },
                cancellationToken: cancellationToken).ConfigureAwait(false);
            return await WaitForJobAsync(job.Id, pollInterval, waitTimeout, cancellationToken).ConfigureAwait(false);
        }

        /// <summary>Reads the job until it has ended (succeeded, failed or cancelled) and returns it.</summary>
        public async Task<Job> WaitForJobAsync(string id, TimeSpan? pollInterval = null, TimeSpan? waitTimeout = null,
            CancellationToken cancellationToken = default(CancellationToken))
        {
            var deadline = DateTimeOffset.UtcNow + (waitTimeout ?? TimeSpan.FromMinutes(30));
            while (true)
            {
                var job = await Jobs.GetAsync(id, cancellationToken: cancellationToken).ConfigureAwait(false);
                if (job.Status == JobStatus.Succeeded || job.Status == JobStatus.Failed || job.Status == JobStatus.Cancelled) return job;
                if (DateTimeOffset.UtcNow > deadline) throw new TimeoutException("job " + id + " is still " + job.Status);
                await Task.Delay(pollInterval ?? TimeSpan.FromSeconds(1), cancellationToken).ConfigureAwait(false);
            }
        }

        /// <summary>A succeeded job's file as text: an export's CSV, or an import's error report (<c>line,errors</c>).</summary>
        public Task<string> JobResultAsync(string id, CancellationToken cancellationToken = default(CancellationToken))
        {
            return _transport.TextAsync(GetJobResult, new[] { id }, null, null, null, null, cancellationToken);
        }
    }
}
