import type { TenantDb } from "../db/client";
import { asConflict } from "../db/constraint-errors";
import { merchants } from "../db/schema/tenant";
import { notFound } from "../http/errors";
import { duplicateCode, merchantRecord, ofMerchant } from "./records";
import type { MerchantBody } from "./schemas";

export async function updateMerchant(tdb: TenantDb, id: string, input: MerchantBody) {
  const [row] = await tdb.db
    .update(merchants)
    .set({ code: input.code, name: input.name, updatedAt: new Date().toISOString() })
    .where(ofMerchant(tdb, id))
    .returning()
    .catch((error) => asConflict(error, duplicateCode));
  if (!row) throw notFound("Merchant");
  return merchantRecord(row);
}
