import type { TenantDb } from "../db/client";
import { merchants } from "../db/schema/tenant";
import { tenantIdsAmong } from "../db/tenant-scope";
import type { AppContext } from "../env";
import { AppError, notFound } from "../http/errors";
import { merchantRecord, ofMerchant } from "./records";

export async function getMerchant(tdb: TenantDb, id: string) {
  const [row] = await tdb.db.select().from(merchants).where(ofMerchant(tdb, id)).limit(1);
  if (!row) throw notFound("Merchant");
  return merchantRecord(row);
}

/** The 404 of a body's `merchantId` naming no merchant of the tenant. */
export const unknownMerchant = (merchantId: string) =>
  new AppError("NOT_FOUND", "Merchant not found", {
    errors: [`merchantId: merchant ${merchantId} not found`],
  });

/** A merchant named in a body: 404 unless the tenant has it (as the caller sees them). */
export async function assertMerchantNamed(tdb: TenantDb, merchantId: string) {
  const found = await tenantIdsAmong(tdb, merchants, [merchantId]);
  if (found.length === 0) throw unknownMerchant(merchantId);
}

/** `assertMerchantNamed` for a platform module (API keys, members), which keeps to the platform's tables. */
export const assertRequestMerchant = (c: AppContext, merchantId: string) =>
  assertMerchantNamed(c.var.tenantDb, merchantId);
