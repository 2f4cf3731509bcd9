import { eq, sql } from "drizzle-orm";
import { type AuditActor, auditRow } from "../../db/audit/writer";
import { runBatch } from "../../db/batch";
import type { TenantDb } from "../../db/client";
import { carrierSettings } from "../../db/schema/tenant";
import { inTenant } from "../../db/tenant-scope";
import { notFound } from "../../http/errors";
import { carrierRecord } from "./records";

/** `DELETE /settings/carriers/{code}`: shipments of that carrier are labelled by the manual carrier again. */
export async function deleteCarrier(tdb: TenantDb, code: string, by: AuditActor) {
  const found = sql`(select json_object('adapter', c.adapter, 'url', c.url) from carrier_settings c
    where c.tenant_id = ${tdb.tenantId} and c.code = ${code})`;
  const {
    deleted: [row],
  } = await runBatch(tdb, {
    // First, so its `before` reads the carrier the delete removes; none when there is none.
    audit: auditRow(
      tdb,
      by,
      { action: "carrier.deleted", target: { type: "carrier", id: code }, before: found },
      { onlyIf: sql`${found} is not null` },
    ),
    deleted: tdb.db
      .delete(carrierSettings)
      .where(inTenant(tdb, carrierSettings, eq(carrierSettings.code, code)))
      .returning(),
  });
  if (!row) throw notFound(`Carrier ${code}`);
  return carrierRecord(row);
}
