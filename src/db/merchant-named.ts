import type { AppContext } from "../env";
import { AppError } from "../http/errors";
import type { TenantDb } from "./client";
import { merchants } from "./schema/tenant";
import { tenantIdsAmong } from "./tenant-scope";

// A body's `merchantId` is checked where products, API keys and members are written, so the check sits with the
// merchant scope in the database seam rather than in the merchants URL module.

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
