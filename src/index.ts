import { createApp } from "./app";
import type { Bindings, WebhookQueueMessage } from "./env";
import { consumeQueue } from "./queue";
import { runSweeps } from "./scheduled";

export { JobWorkflow } from "./jobs/workflow";
export { TenantMover } from "./platform/moves/mover";
export { RateLimiter } from "./rate-limit/rate-limiter";

const app = createApp();

export default {
  fetch: app.fetch,
  queue: (batch, env) => consumeQueue(batch, env),
  scheduled: (_controller, env, ctx) => ctx.waitUntil(runSweeps(env)),
} satisfies ExportedHandler<Bindings, WebhookQueueMessage>;
