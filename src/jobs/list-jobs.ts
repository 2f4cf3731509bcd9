import { count, eq } from "drizzle-orm";
import type { Scope } from "../auth/scopes";
import type { TenantDb } from "../db/client";
import { newestFirst, readPage } from "../db/pages";
import { jobs } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import { visibleJobs } from "./access";
import { jobRecords } from "./job-rows";
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
    rows: tdb.db.select().from(jobs).where(where),
    order: newestFirst(jobs),
    count: tdb.db.select({ value: count() }).from(jobs).where(where),
  });
  return { ...page, items: await jobRecords(tdb, page.items) };
}
