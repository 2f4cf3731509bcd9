import { and, count, desc, eq } from "drizzle-orm";
import type { Scope } from "../auth/scopes";
import type { TenantDb } from "../db/client";
import { readPage } from "../db/pages";
import { jobs } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import { offsetOf } from "../http/pagination";
import { visibleJobs } from "./access";
import { type JobRow, jobRecords } from "./job-rows";
import type { JobsQuery } from "./schemas";

/** `GET /jobs`: the jobs the caller may see, newest first. */
export async function listJobs(tdb: TenantDb, held: readonly Scope[], query: JobsQuery) {
  const where = inTenant(
    tdb,
    jobs,
    visibleJobs(held),
    query.status ? eq(jobs.status, query.status) : undefined,
    query.type ? eq(jobs.type, query.type) : undefined,
  );
  const page = await readPage(tdb, query, {
    rows: tdb.db
      .select()
      .from(jobs)
      .where(where)
      .orderBy(desc(jobs.createdAt), desc(jobs.id))
      .limit(query.pageSize)
      .offset(offsetOf(query)),
    count: tdb.db.select({ value: count() }).from(jobs).where(and(where)),
  });
  return { ...page, items: await jobRecords(tdb, page.items as JobRow[]) };
}
