import type { Actor } from "../auth/principal";
import { type AuditActor, auditRow } from "../db/audit/writer";
import type { TenantDb } from "../db/client";
import { insertNewRow } from "../db/insert-new-row";
import { assertMerchantNamed } from "../db/merchant-named";
import { billingRateCards } from "../db/schema/tenant";
import { toE4 } from "../money";
import { rateCardRecord } from "./records";
import type { CreateRateCardBody } from "./schemas";

/**
 * A merchant's new rate card: it prices the merchant's activity from `effectiveFrom` until a card with a later
 * day does. Cards are never changed, so what a past charge cost stays what it was; one card per merchant and day.
 */
export async function createRateCard(tdb: TenantDb, actor: Actor, body: CreateRateCardBody, by: AuditActor) {
  await assertMerchantNamed(tdb, body.merchantId);
  const row = await insertNewRow(
    tdb,
    billingRateCards,
    {
      merchantId: body.merchantId,
      currency: body.currency,
      effectiveFrom: body.effectiveFrom,
      rates: body.rates.map(({ unitPrice, ...rate }) => ({ ...rate, unitPriceE4: toE4(unitPrice) ?? 0 })),
      createdBy: actor.actorId,
    },
    {
      billing_rate_cards_merchant_day_unique:
        "The merchant already has a rate card from this day; a new card takes a later effectiveFrom",
    },
    (id) =>
      auditRow(tdb, by, {
        action: "rate_card.created",
        target: { type: "rate_card", id },
        merchantId: body.merchantId,
        after: body,
      }),
  );
  return rateCardRecord(row);
}
