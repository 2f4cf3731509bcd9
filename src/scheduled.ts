import { takeStorageSnapshots } from "./billing/storage-snapshots";
import type { Bindings } from "./env";
import { sweepIdempotencyKeys } from "./idempotency/sweep";
import { sweepSignInClients } from "./identity/known-clients";
import { wakeStrandedJobs } from "./jobs/wake-stranded";
import { log } from "./observability/log";
import { sweepOldEvents } from "./outbox/retention";
import { sweepExpiredHolds } from "./stock";
import { sweepExpiredUploads } from "./uploads/sweep-expired";
import { redispatchLost } from "./webhooks/dispatch-sweep";

/** The cron trigger's sweeps; each is independent, so one failing does not stop the others. */
export async function runSweeps(env: Bindings): Promise<void> {
  const sweeps: Array<() => Promise<unknown>> = [
    () => sweepIdempotencyKeys(env),
    () => redispatchLost(env),
    () => sweepSignInClients(env),
    () => sweepExpiredHolds(env),
    () => sweepOldEvents(env),
    () => takeStorageSnapshots(env),
    () => wakeStrandedJobs(env),
    () => sweepExpiredUploads(env),
  ];
  const started = Date.now();
  const results = await Promise.allSettled(sweeps.map((sweep) => sweep()));
  for (const result of results) {
    if (result.status === "rejected") {
      log("error", "sweep failed", { error: String(result.reason) });
    }
  }
  log("info", "cron run", {
    sweeps: sweeps.length,
    failed: results.filter((result) => result.status === "rejected").length,
    durationMs: Date.now() - started,
  });
}
