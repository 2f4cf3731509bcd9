import type { TenantDb } from "../db/client";
import { tenantSettings } from "../db/schema/tenant";
import { settingsRecord } from "./records";
import type { UpdateSettingsBody } from "./schemas";

/** Changes the given settings (omitted ones stay), creating the tenant's row on first use. */
export async function updateSettings(tdb: TenantDb, input: UpdateSettingsBody) {
  const now = new Date().toISOString();
  const changes = {
    ...(input.gs1CompanyPrefix === undefined ? {} : { gs1CompanyPrefix: input.gs1CompanyPrefix }),
    ...(input.currency === undefined ? {} : { currency: input.currency }),
    updatedAt: now,
  };
  const [row] = await tdb.db
    .insert(tenantSettings)
    .values({ tenantId: tdb.tenantId, ...changes })
    .onConflictDoUpdate({ target: tenantSettings.tenantId, set: changes })
    .returning();
  return settingsRecord(row);
}
