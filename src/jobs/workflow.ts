import { WorkflowEntrypoint, type WorkflowEvent, type WorkflowStep } from "cloudflare:workers";
import type { Bindings, JobParams } from "../env";
import { log } from "../observability/log";
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
 * A pause before each step, so the server can serve while a job runs under `wrangler dev`. There the instance runs
 * in this Worker's own workerd process, and a step is one unbroken chain of in-process events (the engine's Durable
 * Object, D1, R2); workerd's event loop reads its sockets only when no event is ready, so without a timer the
 * server accepted nothing, not even the answer of the `POST /jobs` that started the job, until the job ended
 * (docs/decisions/jobs.md). On Cloudflare an instance runs apart from requests; the pause costs it 1 ms a step.
 */
const letOthersIn = () => scheduler.wait(1);

/**
 * One import or export job: `start` (running; an import's chunks, an export's snapshot), one step per chunk of
 * 1,000 rows (an import) or part of 5,000 (an export), then `finish` (succeeded, `job.succeeded`). A step that
 * fails for good ends the job failed (`job.failed`); a cancelled job is terminated by `POST /jobs/{id}/cancel`.
 */
export class JobWorkflow extends WorkflowEntrypoint<Bindings, JobParams> {
  override async run(event: Readonly<WorkflowEvent<JobParams>>, step: WorkflowStep): Promise<void> {
    const { tenantId, jobId } = event.payload;
    const run = async <T extends Rpc.Serializable<T>>(name: string, work: () => Promise<T>): Promise<T> => {
      await letOthersIn();
      return (await step.do(name, RETRIED, work)) as T;
    };
    const runStarted = Date.now();
    // Once per run that reaches its end: a run replayed after a restart times only its own part.
    const logRun = (outcome: "succeeded" | "failed") =>
      log("info", "workflow run", {
        workflow: "jobs",
        tenantId,
        jobId,
        outcome,
        durationMs: Date.now() - runStarted,
      });
    try {
      const started = await run("start", () => startJob(this.env, tenantId, jobId));
      if (started.kind === "import") {
        const { plan } = started;
        for (const chunk of plan.chunks) {
          await run(`chunk ${chunk.n}`, () => importChunk(this.env, tenantId, jobId, plan, chunk));
        }
      } else {
        let after: string | number | null = null;
        for (let n = 0; ; n++) {
          const cursor: string | number | null = after;
          const part: { next: string | number | null } = await run(`part ${n}`, () =>
            exportPart(this.env, tenantId, jobId, n, cursor),
          );
          if (part.next === null) break;
          after = part.next;
        }
      }
      await run("finish", () => finishJob(this.env, tenantId, jobId));
      logRun("succeeded");
    } catch (error) {
      // The engine hands a step's last error back as `<name>: <message>`; the job says why in its own words.
      const message = (error instanceof Error ? error.message : String(error)).replace(/^\w*Error: /, "");
      await run("fail", () => failJob(this.env, tenantId, jobId, message));
      logRun("failed");
    }
  }
}
