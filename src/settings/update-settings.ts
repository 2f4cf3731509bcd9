import { sql } from "drizzle-orm";
import { type AuditActor, auditRow } from "../db/audit/writer";
import { runBatch } from "../db/batch";
import type { TenantDb } from "../db/client";
import { tenantSettings } from "../db/schema/tenant";
import { settingsRecord } from "./records";
import type { UpdateSettingsBody } from "./schemas";

/** Changes the given settings (omitted ones stay), creating the tenant's row on first use. */
export async function updateSettings(tdb: TenantDb, input: UpdateSettingsBody, by: AuditActor) {
  const now = new Date().toISOString();
  const changes = {
    ...(input.gs1CompanyPrefix === undefined ? {} : { gs1CompanyPrefix: input.gs1CompanyPrefix }),
    ...(input.currency === undefined ? {} : { currency: input.currency }),
    updatedAt: now,
  };
  const {
    written: [row],
  } = await runBatch(tdb, {
    // First, so its `before` reads the settings as the change finds them.
    audit: auditRow(tdb, by, {
      action: "settings.updated",
      target: { type: "settings", id: null },
      before: sql`(select json_object('gs1CompanyPrefix', s.gs1_company_prefix, 'currency', s.currency)
        from tenant_settings s where s.tenant_id = ${tdb.tenantId})`,
      after: input,
    }),
    written: tdb.db
      .insert(tenantSettings)
      .values({ tenantId: tdb.tenantId, ...changes })
      .onConflictDoUpdate({ target: tenantSettings.tenantId, set: changes })
      .returning(),
  });
  return settingsRecord(row);
}
