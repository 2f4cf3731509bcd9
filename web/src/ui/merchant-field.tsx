import { currentMerchant } from "../session/session";
import { codeOf, type Merchant, useMerchants } from "./lookups";
import type { Owner } from "./products-lookup";
import { SelectField } from "./select-field";

/** Whose goods a product or order is, as the Merchant select names it. */
export function merchantName(merchants: Merchant[], merchantId: string | null): string {
  const merchant = merchants.find((m) => m.id === merchantId);
  return merchant ? `${merchant.code} ${merchant.name}` : merchantId ? merchantId.slice(0, 8) : OWN_GOODS;
}

/** The tenant's own goods, under no merchant. */
export const OWN_GOODS = "None (the tenant's own goods)";
/** The value of an OWN_GOODS choice in a select whose empty option means any owner. */
const OWN = "own";

/** Whether the signed-in member chooses among the tenant's merchants: a 3PL's, not one acting for a merchant. */
export function useMerchantChoice(): Merchant[] | null {
  const merchants = useMerchants();
  return !currentMerchant() && merchants.data?.length ? merchants.data : null;
}

/**
 * A 3PL's "Merchant" select (`name` in its form; issue #45): in a form `empty` is the tenant's own goods, in a
 * list's filters every owner. A tenant with no merchants, or a member acting for one merchant (the API keeps
 * everything it does to that merchant), sees none, and the form's field is then absent (`merchantOf`).
 */
export function MerchantField({
  name = "merchantId",
  empty,
  initial,
  ownChoice = false,
}: {
  name?: string;
  empty: string;
  initial: string | null | undefined;
  /** Offers the tenant's own goods as a choice of its own (`empty` then means any owner: see `chosenOwner`). */
  ownChoice?: boolean;
}) {
  const merchants = useMerchantChoice();
  if (!merchants) return null;
  return (
    <SelectField
      label="Merchant"
      name={name}
      empty={empty}
      choices={[
        ...(ownChoice ? [{ value: OWN, label: OWN_GOODS }] : []),
        ...merchants.map((m) => ({ value: m.id, label: merchantName(merchants, m.id) })),
      ]}
      initial={initial ?? ""}
    />
  );
}

/**
 * The owner a form's Merchant select chose: a merchant's id, null for the tenant's own goods, or undefined when the
 * form showed no select (the owner is not the form's to say).
 */
export const merchantOf = (fields: Record<string, string | undefined>): string | null | undefined =>
  fields.merchantId === undefined ? undefined : fields.merchantId || null;

/** The owner whose products a form's codes name (see `productByCode`), or undefined when the form says none. */
export const ownerOf = (
  merchantId: string | null | undefined,
  merchants: Merchant[] | null,
): Owner | undefined =>
  merchantId === undefined ? undefined : { merchantId, code: codeOf(merchants ?? undefined, merchantId) };

/** The owner an `ownChoice` select chose, or undefined for any owner (its empty option, or no select shown). */
export function chosenOwner(fields: Record<string, string | undefined>, merchants: Merchant[] | null) {
  const chosen = fields.merchantId;
  return chosen ? ownerOf(chosen === OWN ? null : chosen, merchants) : undefined;
}
