import { eq } from "drizzle-orm";
import type { TenantDb } from "../db/client";
import { locations } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import { conflict } from "../http/errors";

export type LocationRow = typeof locations.$inferSelect;

export function locationRecord({ tenantId: _t, ...row }: LocationRow) {
  return row;
}

/** The 409 of the unique (tenant, warehouse, code) constraint, for a create or an update. */
export const duplicateCode = {
  locations_tenant_warehouse_code_unique: "A location with this code already exists in the warehouse",
};

export const ofLocation = (tdb: TenantDb, id: string) => inTenant(tdb, locations, eq(locations.id, id));

/** A packing location holds picked units reserved for their orders: it is always sellable (409). */
export function assertSellablePacking(input: { type: string; sellable?: boolean }) {
  if (input.type === "packing" && input.sellable === false) {
    throw conflict("A packing location holds picked units reserved for orders; it is always sellable");
  }
}
