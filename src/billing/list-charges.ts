import type { TenantDb } from "../db/client";
import { pageOf } from "../http/pagination";
import { exactMoneyWithText, fromE4 } from "../money";
import { readActivity } from "./activity";
import { type Charge, priceActivity } from "./pricing";
import { billedMerchant } from "./records";
import type { ListChargesQuery } from "./schemas";

const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00.000Z`) + 86_400_000).toISOString();

/** A charge as the API shows it. */
export const chargeRecord = ({ unitPriceE4, amountE4, locationType, packageType, ...charge }: Charge) => ({
  ...charge,
  locationType: locationType ?? null,
  packageType: packageType ?? null,
  unitPrice: fromE4(unitPriceE4),
  ...exactMoneyWithText("amount", amountE4),
});

/** A merchant's charges from `from` to `to` (UTC days, inclusive), priced from the records each time. */
export async function listCharges(tdb: TenantDb, query: ListChargesQuery) {
  const merchantId = await billedMerchant(tdb, query.merchantId);
  const { activity, cards } = await readActivity(tdb, merchantId, {
    from: `${query.from}T00:00:00.000Z`,
    to: nextDay(query.to),
    firstDay: query.from,
    lastDay: query.to,
  });
  return {
    merchantId,
    from: query.from,
    to: query.to,
    ...pageOf(priceActivity(activity, cards), query, chargeRecord),
  };
}
