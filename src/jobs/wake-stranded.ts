import { sql } from "drizzle-orm";
import { tenantDatabases } from "../db/client";
import type { Bindings } from "../env";
import { log } from "../observability/log";

// A running job whose Workflow instance has gone quiet. Cloudflare's Workflows resume an instance whose isolate
// went away on their own; the local engine under `wrangler dev` does not: a server killed mid-job and started
// again leaves the instance asleep with its finished steps stored (docs/decisions/jobs.md). An event sent to an
// instance that is not running starts it again from those steps (its finished chunks are not run twice, and a
// chunk's own record makes it apply once even if it is); a running instance keeps the event unread, since no
// step waits for it. So the cron sends one to each job that has shown no progress for a while.

/** No chunk for this long and the job is taken for stranded (a live one that is slow only gets an event it never reads). */
export const QUIET_FOR_MS = 2 * 60_000;
/** The event's type (no step of JobWorkflow waits for it). */
export const WAKE_EVENT = "wake";
const PER_RUN = 20;

/** Wakes the quiet running jobs of every shard; returns how many it woke. */
export async function wakeStrandedJobs(env: Bindings, now = new Date()): Promise<number> {
  const before = new Date(now.getTime() - QUIET_FOR_MS).toISOString();
  let woken = 0;
  for (const database of tenantDatabases(env)) {
    const quiet = await database.all<{ id: string }>(
      sql`select j.id from jobs j where j.status = 'running' and coalesce(
          (select max(c.created_at) from job_chunks c where c.tenant_id = j.tenant_id and c.job_id = j.id),
          j.started_at, j.created_at) < ${before}
        limit ${PER_RUN}`,
    );
    // One job whose instance cannot be reached (gone, or the engine busy) must not keep the others asleep.
    const sent = await Promise.allSettled(
      quiet.map(async ({ id }) => (await env.JOBS.get(id)).sendEvent({ type: WAKE_EVENT, payload: {} })),
    );
    for (const [i, result] of sent.entries()) {
      if (result.status === "fulfilled") woken++;
      else log("error", "job not woken", { jobId: quiet[i]?.id, error: String(result.reason) });
    }
  }
  return woken;
}
