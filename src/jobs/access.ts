import { inArray, or, type SQL, sql } from "drizzle-orm";
import type { Rights } from "../auth/rights";
import { grants, type Scope } from "../auth/scopes";
import { jobs } from "../db/schema/tenant";
import { AppError } from "../http/errors";
import { feedTypes, readScopeOf } from "../outbox/catalog";
import { type JobType, jobKinds, jobTypes } from "./catalogue";
import type { JobRow } from "./job-rows";

// Scopes follow the data: a job is seen (with its result) by whoever may read its rows, and created or cancelled by
// whoever may write them (an import) or read them (an export). An events export holds only the event types its
// creator could read, and is seen by whoever can read every one of them.

const typesOf = (job: Pick<JobRow, "options">) => (job.options.types as string[] | undefined) ?? [];

/** The scopes `held` lacks to see the job and its result. */
function missingToSee(held: readonly Scope[], job: Pick<JobRow, "type" | "options">): Scope[] {
  const read = jobKinds[job.type].read;
  const needed = read ? [read] : typesOf(job).map((t) => readScopeOf(t as (typeof feedTypes)[number]));
  return [...new Set(needed)].filter((scope) => !grants(held, scope));
}

/** 403 unless `held` may see the job and its result. */
export function assertMaySee(held: readonly Scope[], job: Pick<JobRow, "type" | "options">): void {
  const missing = missingToSee(held, job);
  if (missing.length) throw new AppError("FORBIDDEN", `This job needs the ${missing.join(" and ")} scope`);
}

/** 403 unless `held` may create or cancel a job of this type (an events export: the feed's own check). */
export function assertMayRun(held: readonly Scope[], type: JobType): void {
  const needed = jobKinds[type].scope;
  if (needed && !grants(held, needed)) {
    throw new AppError("FORBIDDEN", `A ${type} job needs the ${needed} scope`);
  }
}

/**
 * Why the job may not go on, judged by its creator's rights now as the creator's own request would be
 * (src/auth/rights.ts): it can do nothing any more, acts for one merchant only (a job runs for the whole tenant),
 * or no longer holds a scope the job writes or reads with. Nothing when it may.
 */
export function creatorStops(rights: Rights, job: Pick<JobRow, "type" | "options">): string | undefined {
  if ("lost" in rights) return `its creator can no longer run it: ${rights.lost}`;
  if (rights.merchantId) {
    return `its creator now acts for merchant ${rights.merchantId} only, and a job runs for the whole tenant`;
  }
  const run = jobKinds[job.type].scope;
  const missing = [
    ...new Set([...(run && !grants(rights.scopes, run) ? [run] : []), ...missingToSee(rights.scopes, job)]),
  ];
  if (missing.length) return `its creator no longer holds the ${missing.join(" and ")} scope`;
  return undefined;
}

/** The jobs `held` may see, as a condition on the jobs table (GET /jobs lists only those). */
export function visibleJobs(held: readonly Scope[]): SQL {
  const readable = jobTypes.filter((type) => {
    const read = jobKinds[type].read;
    return read !== null && grants(held, read);
  });
  const unreadableEvents = feedTypes.filter((type) => !grants(held, readScopeOf(type)));
  return or(
    readable.length ? inArray(jobs.type, readable) : undefined,
    sql`(${jobs.type} = 'events_export' and not exists (select 1 from json_each(${jobs.options}, '$.types') t
      where t.value in (select value from json_each(${JSON.stringify(unreadableEvents)}))))`,
  ) as SQL;
}
