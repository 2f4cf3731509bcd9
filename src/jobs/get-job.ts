import type { Scope } from "../auth/scopes";
import type { TenantDb } from "../db/client";
import type { JobRecord } from "../record-schemas/job";
import { assertMaySee } from "./access";
import { findJob, jobRecord } from "./job-rows";

/** `GET /jobs/{id}`. */
export async function getJob(tdb: TenantDb, held: readonly Scope[], jobId: string): Promise<JobRecord> {
  const job = await findJob(tdb, jobId);
  assertMaySee(held, job);
  return jobRecord(tdb, job);
}
