import type { StoredRate } from "../db/schema/tenant";
import type { Activity } from "./activity";
import type { RateCardRow } from "./records";

/** Activity priced by the card in effect on its day: quantity x unit price, in ten-thousandths, exact. */
export interface Charge extends Activity {
  unitPriceE4: number;
  amountE4: bigint;
  currency: string;
  rateCardId: string;
}

/** The card in effect on `day`: the latest whose effectiveFrom is not after it (cards sorted by effectiveFrom). */
export function cardOn(cards: readonly RateCardRow[], day: string): RateCardRow | undefined {
  return cards.findLast((card) => card.effectiveFrom <= day);
}

/** A rate for exactly this location or package type, else the card's rate for every type. */
function rateFor(card: RateCardRow, a: Activity): StoredRate | undefined {
  const rates = card.rates.filter((r) => r.activity === a.activity && r.per === a.per);
  const typed = (r: StoredRate) => r.locationType ?? r.packageType;
  return (
    rates.find((r) => typed(r) !== undefined && typed(r) === (a.locationType ?? a.packageType)) ??
    rates.find((r) => typed(r) === undefined)
  );
}

/**
 * The charges of `activity`: each priced by its day's card, the type it names only when its rate is for that type
 * (a rate for every type bills its storage snapshot or shipment as one charge). Activity no rate prices is not
 * billed. Sorted by day, then when it happened.
 */
export function priceActivity(activity: readonly Activity[], cards: readonly RateCardRow[]): Charge[] {
  const charges = new Map<string, Charge>();
  for (const a of activity) {
    const card = cardOn(cards, a.date);
    const rate = card && rateFor(card, a);
    if (!card || !rate) continue;
    const { locationType, packageType, ...rest } = a;
    const priced = {
      ...rest,
      ...(rate.locationType ? { locationType } : {}),
      ...(rate.packageType ? { packageType } : {}),
    };
    const key = JSON.stringify([a.date, a.reference, a.activity, a.per, rate.locationType, rate.packageType]);
    const quantity = (charges.get(key)?.quantity ?? 0) + a.quantity;
    charges.set(key, {
      ...priced,
      quantity,
      unitPriceE4: rate.unitPriceE4,
      amountE4: BigInt(quantity) * BigInt(rate.unitPriceE4),
      currency: card.currency,
      rateCardId: card.id,
    });
  }
  return [...charges.values()].sort(
    (x, y) =>
      x.date.localeCompare(y.date) ||
      x.reference.at.localeCompare(y.reference.at) ||
      x.activity.localeCompare(y.activity) ||
      x.per.localeCompare(y.per) ||
      x.reference.id.localeCompare(y.reference.id) ||
      (x.locationType ?? x.packageType ?? "").localeCompare(y.locationType ?? y.packageType ?? ""),
  );
}
