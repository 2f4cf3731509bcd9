import type { TenantDb } from "../../db/client";
import { carrierSettings } from "../../db/schema/tenant";
import { inTenant } from "../../db/tenant-scope";
import { carrierRecord } from "./records";

/** `GET /settings/carriers`: every configured carrier code, by code (a tenant has a handful). */
export async function listCarriers(tdb: TenantDb) {
  const rows = await tdb.db
    .select()
    .from(carrierSettings)
    .where(inTenant(tdb, carrierSettings))
    .orderBy(carrierSettings.code);
  return rows.map(carrierRecord);
}
