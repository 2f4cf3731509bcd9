import { eq } from "drizzle-orm";
import type { TenantDb } from "../db/client";
import { merchants } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";

export type MerchantRow = typeof merchants.$inferSelect;

export function merchantRecord({ tenantId: _t, ...row }: MerchantRow) {
  return row;
}

/** The 409 of the unique (tenant, code) constraint, for a create or an update. */
export const duplicateCode = {
  merchants_tenant_code_unique: "A merchant with this code already exists",
};

export const ofMerchant = (tdb: TenantDb, id: string) => inTenant(tdb, merchants, eq(merchants.id, id));
