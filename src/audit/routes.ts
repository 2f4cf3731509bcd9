import { verifyChain } from "../db/audit/chain";
import { storeOf } from "../db/audit/store";
import type { AppContext } from "../env";
import { csvDownload, downloadName } from "../http/csv-download";
import { envelopeOf, ok } from "../http/envelope";
import { IdParam } from "../http/params";
import { createRouter } from "../http/router";
import { defineRoute, errorResponse, jsonContent as json } from "../pipeline/route";
import { getAuditEvent } from "./get-audit-event";
import { auditCsvColumns, auditCsvPage, filtersOf, listAuditEvents } from "./list-audit-events";
import { AuditEntry, AuditListQuery, AuditPage, AuditVerification } from "./schemas";

const tags = ["Audit log"];
// Owners and admins; one acting for a merchant reads its merchant's entries only.
const readers = { scope: "admin", merchants: true } as const;

/** The tenant's two chains: the platform database's and its shard's (src/db/audit/store.ts). */
const chainsOf = (c: AppContext) => [c.var.platformScope, c.var.tenantDb] as const;

const listRoute = defineRoute(readers, {
  method: "get",
  path: "/audit-events",
  operationId: "listAuditEvents",
  tags,
  summary: "The audit log: who did what, from where, newest first",
  description:
    "Every administrative and security-relevant action of the tenant: sign-ins and failures, keys, members, " +
    "invitations, webhooks, settings, carriers, merchants, rate cards, invoices and the platform's actions on the " +
    "tenant. Secrets are never recorded. Store `nextCursor` and send it back as `after`. `format=csv` downloads " +
    "every matching entry. A credential acting for a merchant sees that merchant's entries only.",
  request: { query: AuditListQuery },
  responses: {
    200: {
      description: "A page of entries, or with `format=csv` every matching entry",
      headers: {
        "Content-Disposition": {
          description: "With `format=csv` only: `attachment` and the download's name.",
          schema: { type: "string" as const, example: 'attachment; filename="audit-events-2026-11-29.csv"' },
        },
      },
      content: {
        ...json(envelopeOf(AuditPage)).content,
        "text/csv": { schema: { type: "string" as const, description: "RFC 4180 CSV, a header row first." } },
      },
    },
  },
});

const verifyRoute = defineRoute(
  { scope: "admin" },
  {
    method: "get",
    path: "/audit-events/verify",
    operationId: "verifyAuditEvents",
    tags,
    summary: "Check the audit log's hash chains from their first entry",
    description:
      "Each entry carries the hash of the one before it in its chain. This reads both chains of the tenant and " +
      "answers the first entry that was changed, removed or relinked since it was written, if any.",
    responses: { 200: { description: "What the check found", ...json(envelopeOf(AuditVerification)) } },
  },
);

const getRoute = defineRoute(readers, {
  method: "get",
  path: "/audit-events/{id}",
  operationId: "getAuditEvent",
  tags,
  summary: "One audit entry",
  request: { params: IdParam },
  responses: {
    200: { description: "The entry", ...json(envelopeOf(AuditEntry)) },
    404: errorResponse("Unknown audit entry"),
  },
});

export const auditRoutes = createRouter()
  .openapi(verifyRoute, async (c) => {
    const chains = await Promise.all(
      chainsOf(c).map(async (handle) => ({ chain: storeOf(handle), ...(await verifyChain(handle)) })),
    );
    return ok(c, { valid: chains.every((chain) => chain.broken === null), chains });
  })
  .openapi(listRoute, async (c) => {
    const query = c.req.valid("query");
    const filters = filtersOf(query, c.var.merchantId);
    if (query.format === "csv") {
      return csvDownload(
        c,
        downloadName("audit-events"),
        auditCsvColumns,
        auditCsvPage(chainsOf(c), filters, query.after),
      );
    }
    return ok(c, await listAuditEvents(chainsOf(c), filters, query));
  })
  .openapi(getRoute, async (c) => {
    return ok(c, await getAuditEvent(chainsOf(c), c.req.valid("param").id, c.var.merchantId));
  });
