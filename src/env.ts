import type { Context } from "hono";
import type { KeyView } from "./auth/key-views";
import type { Principal } from "./auth/principal";
import type { Scope } from "./auth/scopes";
import type { Tenant } from "./auth/tenant-record";
import type { AuditActor } from "./db/audit/writer";
import type { DatabaseBindings } from "./db/bindings";
import type { PlatformScope, TenantDb } from "./db/client";
import type { D1Stats } from "./db/d1-stats";
import type { TenantMover } from "./platform/moves/mover";
import type { RateLimiter } from "./rate-limit/rate-limiter";

/** The Worker's bindings, as wrangler.toml declares them (the databases' in src/db, their only reader). */
export interface Bindings extends DatabaseBindings {
  RATE_LIMITER: DurableObjectNamespace<RateLimiter>;
  /** One Durable Object per online tenant move (src/platform/moves). */
  TENANT_MOVER: DurableObjectNamespace<TenantMover>;
  WEBHOOK_QUEUE: Queue<WebhookQueueMessage>;
  /** Shipping labels (PDF or ZPL) per package, keyed `<tenant>/<shipment>/<package>` (docs/decisions/fulfilment.md). */
  LABELS: R2Bucket;
  /** Uploaded files and the jobs' results, keyed `<tenant>/uploads/<id>` and `<tenant>/jobs/<id>/...` (src/jobs). */
  FILES: R2Bucket;
  /** One Workflow instance per import or export job (src/jobs/workflow.ts). */
  JOBS: Workflow<JobParams>;
  /** The built web application and docs page (wrangler.toml [assets]). */
  ASSETS: Fetcher;
  ENVIRONMENT: string;
  JWT_SECRET: string;
  PLATFORM_ADMIN_TOKEN: string;
  WEBHOOK_SECRET_KEY: string;
  ALLOW_LOCAL_WEBHOOK_URLS?: string;
  /** Mail (src/mail): the sender address, and Cloudflare's send_email binding or an HTTP provider. */
  MAIL_FROM?: string;
  MAILER?: SendEmail;
  MAIL_API_URL?: string;
  MAIL_API_KEY?: string;
  /** The web app's origin for links in mail; the request's origin when unset. */
  APP_ORIGIN?: string;
  /** "on" only when the soak starts `wrangler dev` (src/dev/fault-injection.ts); never set anywhere else. */
  FAULT_INJECTION?: string;
}

/** What a job's Workflow instance is created with (its id is the job's; src/jobs/workflow.ts). */
export interface JobParams {
  tenantId: string;
  jobId: string;
}

/** What the queue carries: one outbox event to fan out, or one delivery to attempt. */
export type WebhookQueueMessage =
  /** `shard`: where the event was committed, the consumer's first guess (the tenant may have moved since). */
  | { kind: "event"; tenantId: string; eventId: string; shard?: string }
  | { kind: "delivery"; tenantId: string; deliveryId: string };

/** Per-request values set by the middleware pipeline and read by handlers. */
export interface Variables {
  requestId: string;
  keyView: KeyView;
  d1Stats: D1Stats;
  principal: Principal;
  tenant: Tenant;
  /** The scopes the caller holds in the resolved tenant (a key's own, or its role's). */
  scopes: readonly Scope[];
  /** The merchant the caller acts for (a merchant-scoped key or member); undefined: the whole tenant. */
  merchantId: string | undefined;
  tenantDb: TenantDb;
  /** The resolved tenant's rows in platform tables (its members, its API keys). */
  platformScope: PlatformScope;
  /** Who acts in this request's audit entries, once one is written (src/pipeline/audit-actor.ts). */
  auditActor: AuditActor | undefined;
}

export interface AppEnv {
  Bindings: Bindings;
  Variables: Variables;
}

export type AppContext = Context<AppEnv>;
