import { sql } from "drizzle-orm";
import { type AuditActor, auditRow } from "../db/audit/writer";
import { runBatch } from "../db/batch";
import type { TenantDb } from "../db/client";
import { asConflict } from "../db/constraint-errors";
import { merchants } from "../db/schema/tenant";
import { notFound } from "../http/errors";
import { duplicateCode, merchantRecord, ofMerchant } from "./records";
import type { MerchantBody } from "./schemas";

export async function updateMerchant(tdb: TenantDb, id: string, input: MerchantBody, by: AuditActor) {
  const found = sql`(select json_object('code', m.code, 'name', m.name) from merchants m
    where m.tenant_id = ${tdb.tenantId} and m.id = ${id})`;
  const {
    updated: [row],
  } = await runBatch(tdb, {
    // First, so its `before` reads the merchant as the update finds it; none for an unknown merchant.
    audit: auditRow(
      tdb,
      by,
      {
        action: "merchant.updated",
        target: { type: "merchant", id },
        merchantId: id,
        before: found,
        after: { code: input.code, name: input.name },
      },
      { onlyIf: sql`${found} is not null` },
    ),
    updated: tdb.db
      .update(merchants)
      .set({ code: input.code, name: input.name, updatedAt: new Date().toISOString() })
      .where(ofMerchant(tdb, id))
      .returning(),
  }).catch((error) => asConflict(error, duplicateCode));
  if (!row) throw notFound("Merchant");
  return merchantRecord(row);
}
