import { type AuditActor, auditRow } from "../db/audit/writer";
import type { TenantDb } from "../db/client";
import { insertNewRow } from "../db/insert-new-row";
import { merchants } from "../db/schema/tenant";
import { duplicateCode, merchantRecord } from "./records";
import type { MerchantBody } from "./schemas";

export async function createMerchant(tdb: TenantDb, input: MerchantBody, by: AuditActor) {
  const fields = { code: input.code, name: input.name };
  const row = await insertNewRow(tdb, merchants, fields, duplicateCode, (id) =>
    auditRow(tdb, by, {
      action: "merchant.created",
      target: { type: "merchant", id },
      merchantId: id,
      after: fields,
    }),
  );
  return merchantRecord(row);
}
