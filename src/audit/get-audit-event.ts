import { readAuditEntry } from "../db/audit/read";
import type { AuditHandle } from "../db/audit/store";
import { notFound } from "../http/errors";
import { auditEntry } from "./records";

/** `GET /audit-events/{id}`: one entry of either chain; 404 when it is not the tenant's (or not the merchant's). */
export async function getAuditEvent(stores: readonly AuditHandle[], id: string, merchantId?: string) {
  const row = await readAuditEntry(stores, id, merchantId);
  if (!row) throw notFound("Audit entry");
  return auditEntry(row);
}
