import { eq, sql } from "drizzle-orm";
import { type AuditActor, auditRow } from "../db/audit/writer";
import { runBatch } from "../db/batch";
import type { PlatformDb } from "../db/client";
import { tenants } from "../db/schema/platform";
import { notFound } from "../http/errors";
import { type TenantRow, tenantRecord } from "./records";

export async function updateTenant(
  db: PlatformDb,
  id: string,
  changes: Partial<Pick<TenantRow, "name" | "plan" | "status">>,
  by: AuditActor,
) {
  const found = sql`(select json_object('name', t.name, 'plan', t.plan, 'status', t.status) from tenants t where t.id = ${id})`;
  const {
    updated: [row],
  } = await runBatch(db, {
    // First, so its `before` reads the tenant as the change finds it (a plan change shows both plans).
    audit: auditRow(
      { db, tenantId: id },
      by,
      { action: "tenant.updated", target: { type: "tenant", id }, before: found, after: changes },
      { onlyIf: sql`${found} is not null` },
    ),
    updated: db
      .update(tenants)
      .set({ ...changes, updatedAt: new Date().toISOString() })
      .where(eq(tenants.id, id))
      .returning(),
  });
  if (!row) throw notFound("Tenant");
  return tenantRecord(row);
}
