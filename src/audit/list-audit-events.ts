import { type AuditEntryRow, type AuditFilters, readAuditPage } from "../db/audit/read";
import type { AuditHandle } from "../db/audit/store";
import type { CsvColumn, CsvPage } from "../http/csv-stream";
import { decodeAuditCursor, encodeAuditCursor } from "./cursor";
import { auditEntry } from "./records";
import type { AuditListQuery } from "./schemas";

export const filtersOf = (query: AuditListQuery, merchantId: string | undefined): AuditFilters => ({
  ...(query.action ? { actions: query.action } : {}),
  ...(query.actorId ? { actorId: query.actorId } : {}),
  ...(query.targetType ? { targetType: query.targetType } : {}),
  ...(query.targetId ? { targetId: query.targetId } : {}),
  ...(query.from ? { from: query.from } : {}),
  ...(query.to ? { to: query.to } : {}),
  ...(merchantId ? { merchantId } : {}),
});

/** `GET /audit-events`: a page of entries newest first, and the cursor of the next. */
export async function listAuditEvents(
  stores: readonly AuditHandle[],
  filters: AuditFilters,
  query: AuditListQuery,
) {
  const after = query.after ? decodeAuditCursor(query.after) : undefined;
  const { rows, more } = await readAuditPage(stores, filters, query.limit, after);
  const last = rows.at(-1);
  return { items: rows.map(auditEntry), nextCursor: more && last ? encodeAuditCursor(last) : null };
}

const CSV_PAGE = 500;

/** The export's rows a page at a time (csvDownload), every matching entry newest first. */
export const auditCsvPage =
  (stores: readonly AuditHandle[], filters: AuditFilters, first?: string) =>
  async (cursor: string | null): Promise<CsvPage<AuditEntryRow, string>> => {
    const from = cursor ?? first;
    const { rows, more } = await readAuditPage(
      stores,
      filters,
      CSV_PAGE,
      from ? decodeAuditCursor(from) : undefined,
    );
    const last = rows.at(-1);
    return { rows, next: more && last ? encodeAuditCursor(last) : null };
  };

const text = (value: unknown) => (value === null || value === undefined ? "" : JSON.stringify(value));

export const auditCsvColumns: readonly CsvColumn<AuditEntryRow>[] = [
  { header: "createdAt", cell: (r) => r.createdAt },
  { header: "id", cell: (r) => r.id },
  { header: "chain", cell: (r) => r.store },
  { header: "seq", cell: (r) => r.seq },
  { header: "action", cell: (r) => r.action },
  { header: "actorType", cell: (r) => r.actorType },
  { header: "actorId", cell: (r) => r.actorId ?? "" },
  { header: "actorChain", cell: (r) => r.actorChain.map((link) => `${link.type}:${link.id}`).join(" < ") },
  { header: "merchantId", cell: (r) => r.merchantId ?? "" },
  { header: "targetType", cell: (r) => r.targetType },
  { header: "targetId", cell: (r) => r.targetId ?? "" },
  { header: "before", cell: (r) => text(r.before) },
  { header: "after", cell: (r) => text(r.after) },
  { header: "ip", cell: (r) => r.ip ?? "" },
  { header: "userAgent", cell: (r) => r.userAgent ?? "" },
  { header: "requestId", cell: (r) => r.requestId ?? "" },
  { header: "hash", cell: (r) => r.hash ?? "" },
];
