// Where each kind of file is kept in the FILES bucket, by tenant: uploads (which jobs import) and jobs' result parts.

/** Where an upload's file is kept in the FILES bucket. */
export const uploadKey = (tenantId: string, uploadId: string) => `${tenantId}/uploads/${uploadId}`;

/** Where a chunk's part of a job's result is kept in the FILES bucket (an export's rows, an import's error lines). */
export const jobPartKey = (tenantId: string, jobId: string, chunk: number) =>
  `${tenantId}/jobs/${jobId}/part-${chunk}`;
