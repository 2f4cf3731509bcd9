import type { Schemas } from "../api/client";
import { currentMerchant } from "../session/session";
import { statusLabel } from "../ui/format";
import { type Merchant, useMerchants } from "../ui/lookups";
import { SelectField } from "../ui/select-field";
import { SubNav } from "../ui/sub-nav";
import type { Load } from "../ui/use-load";

type Activity = Schemas["BillingActivity"];
type Unit = Schemas["BillingUnit"];

/**
 * What each activity is priced per, in the order a card lists them (the API's table in src/billing/schemas.ts,
 * which pulls zod in and so is not bundled: an unknown pair is the API's clear 400).
 */
export const RATE_UNITS: [Activity, Unit[]][] = [
  ["storage", ["unit_day", "location_day"]],
  ["receiving", ["line", "unit"]],
  ["picking", ["order", "line", "unit"]],
  ["packing", ["package"]],
  ["returns", ["return", "unit"]],
  ["minimum", ["month"]],
];

/** `Storage` for `storage`. */
export const activityLabel = (activity: Activity) => `${activity[0]?.toUpperCase()}${activity.slice(1)}`;

/** `Storage per unit day (bin)`: what a rate, charge or invoice line prices. */
export const rateLabel = (rate: {
  activity: Activity;
  per: Unit;
  locationType?: string | null;
  packageType?: string | null;
}) => {
  const type = rate.locationType ?? rate.packageType;
  const text = `${activityLabel(rate.activity)} per ${statusLabel(rate.per)}`;
  return type ? `${text} (${type})` : text;
};

export const BillingNav = () => (
  <SubNav
    label="Billing"
    items={[
      ["/app/billing/invoices", "Invoices"],
      ["/app/billing/charges", "Charges"],
      ["/app/billing/rate-cards", "Rate cards"],
    ]}
  />
);

/**
 * The merchant a billing page shows: a merchant-scoped member's own (it bills nothing else and is not offered a
 * choice), else the one chosen in the URL, by default the first (`required`) or every merchant.
 */
export function useBilledMerchant(chosen: string, required: boolean) {
  const own = currentMerchant();
  const merchants = useMerchants();
  const merchantId = own ?? (chosen || (required ? (merchants.data?.[0]?.id ?? "") : ""));
  // A page that needs a merchant knows it has none only once the merchants are read.
  const known = merchantId !== "" || !required || merchants.state !== "loading";
  return { own, merchants, merchantId, known };
}

/**
 * A billing list with no merchant to show: empty once the merchants are read, and nothing yet (a spinner) while they
 * load, so the page never says "No merchants yet." of a tenant whose merchants are still coming.
 */
export function noMerchantPage<T>(billed: { known: boolean }, pageSize: number) {
  return billed.known
    ? Promise.resolve({ items: [] as T[], page: 1, pageSize, totalPages: 0, totalCount: 0 })
    : new Promise<never>(() => undefined);
}

/** A merchant's code for an id, or the id's start while the list loads. */
export const merchantCode = (merchants: Merchant[] | undefined, id: string) =>
  merchants?.find((m) => m.id === id)?.code ?? id.slice(0, 8);

/** The merchant filter of a billing page: absent for a merchant-scoped member. */
export function MerchantField({
  billed,
  required,
}: {
  billed: { own: string | null; merchants: Load<Merchant[]>; merchantId: string };
  required: boolean;
}) {
  if (billed.own) return null;
  return (
    <SelectField
      label="Merchant"
      name="merchant"
      {...(!required && { empty: "Any" })}
      choices={billed.merchants.data?.map((m) => ({ value: m.id, label: `${m.code} ${m.name}` }))}
      initial={billed.merchantId}
    />
  );
}
