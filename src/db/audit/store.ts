import type { PlatformDb, PlatformScope, TenantDb } from "../client";
import * as platformSchema from "../schema/platform";
import * as tenantSchema from "../schema/tenant";

/** One tenant's audit chain: on the platform database or on its shard (docs/decisions/audit-log.md). */
export type AuditHandle = PlatformScope | TenantDb;

/** Which of a tenant's two chains a handle writes and reads, as the API names it. */
export type AuditStore = "platform" | "tenant";

export const storeOf = (handle: AuditHandle): AuditStore =>
  "committedEvents" in handle ? "tenant" : "platform";

/** The audit table of a handle's database (the two have one shape). */
export const auditTableOf = (handle: AuditHandle | PlatformDb) =>
  "committedEvents" in handle ? tenantSchema.auditEvents : platformSchema.auditEvents;

/** The drizzle database behind a handle. */
export const databaseOf = (handle: AuditHandle | PlatformDb) => ("db" in handle ? handle.db : handle);
