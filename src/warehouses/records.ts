import { eq } from "drizzle-orm";
import type { TenantDb } from "../db/client";
import { warehouses } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";

export type WarehouseRow = typeof warehouses.$inferSelect;

export function warehouseRecord({ tenantId: _t, ...row }: WarehouseRow) {
  return { ...row, address: row.address ?? null };
}

/** The 409 of the unique (tenant, code) constraint, for a create or an update. */
export const duplicateCode = {
  warehouses_tenant_code_unique: "A warehouse with this code already exists",
};

export const ofWarehouse = (tdb: TenantDb, id: string) => inTenant(tdb, warehouses, eq(warehouses.id, id));
