import { sql } from "drizzle-orm";
import type { TenantDb } from "../db/client";
import { INTERNAL_COMPANY_PREFIX, sscc, ssccSerialCapacity } from "../gs1/sscc";
import { conflict } from "../http/errors";

/**
 * `count` new SSCCs for the tenant's packages: the serial references are taken from the tenant's counter by
 * one upsert before the shipment's batch (a failed batch leaves a gap: SSCCs must be unique, not gapless),
 * with the tenant's GS1 company prefix or the internal one.
 */
export async function takeSsccs(tdb: TenantDb, count: number): Promise<string[]> {
  const now = new Date().toISOString();
  const [row] = await tdb.db.all<{ last: number; prefix: string | null }>(
    sql`insert into tenant_settings (tenant_id, sscc_serial, updated_at) values (${tdb.tenantId}, ${count}, ${now})
      on conflict (tenant_id) do update set sscc_serial = sscc_serial + ${count}
      returning sscc_serial as last, gs1_company_prefix as prefix`,
  );
  if (!row) throw new Error("the SSCC counter returned nothing");
  const first = row.last - count + 1;
  const capacity = ssccSerialCapacity(row.prefix ?? INTERNAL_COMPANY_PREFIX);
  if (row.last >= capacity) {
    throw conflict(
      `The SSCC serial references of company prefix ${row.prefix ?? INTERNAL_COMPANY_PREFIX} are used up: set another gs1CompanyPrefix`,
    );
  }
  return Array.from({ length: count }, (_, i) => sscc(row.prefix, first + i));
}
