import { and, eq, exists, not, notInArray, or, type SQL, sql } from "drizzle-orm";
import { type AuditActor, auditRow } from "../db/audit/writer";
import { runBatch } from "../db/batch";
import type { TenantDb } from "../db/client";
import { merchants, orders, products } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import { conflict } from "../http/errors";
import { previousStatementChanged } from "../outbox/outbox";
import { getMerchant } from "./read-merchant";
import { ofMerchant } from "./records";

const one = sql`1`;

// An order in one of these states still moves the merchant's goods.
const closedStatuses = ["shipped", "delivered", "cancelled", "received"];

/** Its goods (products) or its open orders: what a merchant's deletion would leave without an owner. */
function inUse(tdb: TenantDb, id: string): SQL {
  return or(
    exists(
      tdb.db
        .select({ one })
        .from(products)
        .where(inTenant(tdb, products, eq(products.merchantId, id))),
    ),
    exists(
      tdb.db
        .select({ one })
        .from(orders)
        .where(inTenant(tdb, orders, eq(orders.merchantId, id), notInArray(orders.status, closedStatuses))),
    ),
  ) as SQL;
}

/**
 * Refused (409) while the merchant has products or open orders (the check and the delete are one statement), and
 * while a key, a member or a pending invitation acts for it (409 naming each: revoke or change them first).
 * `actingFor` names those: credentials are the platform's data (src/identity/merchant-credentials.ts).
 */
export async function deleteMerchant(
  tdb: TenantDb,
  id: string,
  actingFor: () => Promise<string[]>,
  by: AuditActor,
) {
  const merchant = await getMerchant(tdb, id);
  const acting = await actingFor();
  if (acting.length > 0) {
    throw conflict(
      "Keys, members or invitations act for this merchant: revoke the keys and change or remove the members first",
      acting,
    );
  }
  const { removed } = await runBatch(tdb, {
    removed: tdb.db
      .delete(merchants)
      .where(and(ofMerchant(tdb, id), not(inUse(tdb, id))))
      .returning({ id: merchants.id }),
    audit: auditRow(
      tdb,
      by,
      { action: "merchant.deleted", target: { type: "merchant", id }, merchantId: id, before: merchant },
      { onlyIf: previousStatementChanged },
    ),
  });
  if (removed.length === 0) {
    throw conflict("The merchant has products or open orders; delete or reassign its products first");
  }
  return merchant;
}
