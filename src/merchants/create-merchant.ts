import type { TenantDb } from "../db/client";
import { insertNewRow } from "../db/insert-new-row";
import { merchants } from "../db/schema/tenant";
import { duplicateCode, merchantRecord } from "./records";
import type { MerchantBody } from "./schemas";

export async function createMerchant(tdb: TenantDb, input: MerchantBody) {
  const row = await insertNewRow(tdb, merchants, { code: input.code, name: input.name }, duplicateCode);
  return merchantRecord(row);
}
