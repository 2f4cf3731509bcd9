import type { TenantDb } from "../db/client";
import { tenantSettings } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import type { TenantSettingsRecord } from "./schemas";

export type TenantSettingsRow = typeof tenantSettings.$inferSelect;

/** A tenant that never saved settings has the defaults. */
export const settingsRecord = (row: TenantSettingsRow | undefined): TenantSettingsRecord => ({
  gs1CompanyPrefix: row?.gs1CompanyPrefix ?? null,
  currency: row?.currency ?? null,
  updatedAt: row?.updatedAt ?? null,
});

export const selectSettings = (tdb: TenantDb) =>
  tdb.db.select().from(tenantSettings).where(inTenant(tdb, tenantSettings)).limit(1);
