/** Where a chunk's part of a job's result is kept in the FILES bucket (an export's rows, an import's error lines). */
export const jobPartKey = (tenantId: string, jobId: string, chunk: number) =>
  `${tenantId}/jobs/${jobId}/part-${chunk}`;
