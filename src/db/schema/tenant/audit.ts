import { auditTable } from "../audit-columns";

// The audit entries of what changes on the tenant's shard (webhooks, settings, carriers, merchants, billing).
export const auditEvents = auditTable("audit_events");
