import type { TenantDb } from "../db/client";
import { merchants } from "../db/schema/tenant";
import { notFound } from "../http/errors";
import { merchantRecord, ofMerchant } from "./records";

export async function getMerchant(tdb: TenantDb, id: string) {
  const [row] = await tdb.db.select().from(merchants).where(ofMerchant(tdb, id)).limit(1);
  if (!row) throw notFound("Merchant");
  return merchantRecord(row);
}
