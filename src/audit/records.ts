import type { AuditEntryRow } from "../db/audit/read";

/** An entry as the API answers it. */
export const auditEntry = (row: AuditEntryRow) => ({
  id: row.id,
  chain: row.store,
  seq: row.seq,
  action: row.action,
  actor: { type: row.actorType, id: row.actorId, chain: row.actorChain },
  merchantId: row.merchantId,
  target: { type: row.targetType, id: row.targetId },
  before: row.before ?? null,
  after: row.after ?? null,
  ip: row.ip,
  userAgent: row.userAgent,
  requestId: row.requestId,
  createdAt: row.createdAt,
  prevHash: row.prevHash,
  hash: row.hash,
});
