import { WorkflowEntrypoint, type WorkflowEvent, type WorkflowStep } from "cloudflare:workers";
import type { Bindings, JobParams } from "../env";
import { failJob, finishJob, startJob } from "./lifecycle";
import { exportPart, importChunk } from "./steps";

// Each step is retried on failure (a D1 or R2 error in transit, an isolate that went away) with backoff; a step
// that cannot succeed throws NonRetryableError. The engine keeps each finished step's result, so an instance that
// restarts (a deploy, a crash, `wrangler dev` restarted) replays finished steps from storage and goes on with the
// first unfinished one: steps must be idempotent, and are (src/jobs/steps.ts).
const RETRIED = {
  retries: { limit: 5, delay: "2 seconds", backoff: "exponential" },
  timeout: "5 minutes",
} as const;

/**
 * One import or export job: `start` (running; an import's chunks, an export's snapshot), one step per chunk of
 * 1,000 rows (an import) or part of 5,000 (an export), then `finish` (succeeded, `job.succeeded`). A step that
 * fails for good ends the job failed (`job.failed`); a cancelled job is terminated by `POST /jobs/{id}/cancel`.
 */
export class JobWorkflow extends WorkflowEntrypoint<Bindings, JobParams> {
  override async run(event: Readonly<WorkflowEvent<JobParams>>, step: WorkflowStep): Promise<void> {
    const { tenantId, jobId } = event.payload;
    try {
      const started = await step.do("start", RETRIED, () => startJob(this.env, tenantId, jobId));
      if (started.kind === "import") {
        const { plan } = started;
        for (const chunk of plan.chunks) {
          await step.do(`chunk ${chunk.n}`, RETRIED, () =>
            importChunk(this.env, tenantId, jobId, plan, chunk),
          );
        }
      } else {
        let after: string | number | null = null;
        for (let n = 0; ; n++) {
          const cursor: string | number | null = after;
          const part: { next: string | number | null } = await step.do(`part ${n}`, RETRIED, () =>
            exportPart(this.env, tenantId, jobId, n, cursor),
          );
          if (part.next === null) break;
          after = part.next;
        }
      }
      await step.do("finish", RETRIED, () => finishJob(this.env, tenantId, jobId));
    } catch (error) {
      // The engine hands a step's last error back as `<name>: <message>`; the job says why in its own words.
      const message = (error instanceof Error ? error.message : String(error)).replace(/^\w*Error: /, "");
      await step.do("fail", RETRIED, () => failJob(this.env, tenantId, jobId, message));
    }
  }
}
