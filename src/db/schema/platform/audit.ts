import { auditTable } from "../audit-columns";

// The audit entries of what changes on the platform database (sign-ins, API keys, members, invitations, tenants).
export const auditEvents = auditTable("audit_events");
