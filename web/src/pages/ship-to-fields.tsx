import { countryCodes, countryName } from "../../../src/order-core/countries";
import type { Schemas } from "../api/client";
import { SelectField } from "../ui/select-field";

type ShippingAddress = Schemas["ShippingAddress"];

// Every ISO 3166-1 country by its English name, as the API's countryCode takes it.
const countries = countryCodes
  .map((code) => ({ value: code, label: countryName(code) }))
  .sort((a, b) => a.label.localeCompare(b.label));

/** A sales order's ship-to, as a carrier's label needs it: street, city and postal code required, the rest not. */
export function ShipToFields() {
  return (
    <fieldset class="field">
      <legend>Ship to</legend>
      <div class="field-row">
        <label class="field">
          <span>Recipient (optional)</span>
          <input name="name" maxLength={200} autocomplete="shipping name" />
        </label>
        <label class="field">
          <span>Company (optional)</span>
          <input name="company" maxLength={200} autocomplete="shipping organization" />
        </label>
      </div>
      <label class="field">
        <span>Street</span>
        <input name="street" required maxLength={200} autocomplete="shipping address-line1" />
      </label>
      <label class="field">
        <span>Street, second line (optional)</span>
        <input name="street2" maxLength={200} autocomplete="shipping address-line2" />
      </label>
      <div class="field-row">
        <label class="field">
          <span>Postal code</span>
          <input name="zip" required maxLength={20} autocomplete="shipping postal-code" />
        </label>
        <label class="field">
          <span>City</span>
          <input name="city" required maxLength={100} autocomplete="shipping address-level2" />
        </label>
      </div>
      <div class="field-row">
        <label class="field">
          <span>Region (optional)</span>
          <input name="state" maxLength={100} autocomplete="shipping address-level1" />
        </label>
        <SelectField label="Country (optional)" name="countryCode" empty="—" choices={countries} />
      </div>
      <div class="field-row">
        <label class="field">
          <span>Phone (optional)</span>
          <input name="phone" type="tel" maxLength={40} autocomplete="shipping tel" />
        </label>
        <label class="field">
          <span>Email (optional)</span>
          <input name="email" type="email" maxLength={254} autocomplete="shipping email" />
        </label>
      </div>
    </fieldset>
  );
}

const optionalFields = ["name", "company", "street2", "state", "phone", "email"] as const;

/** The address a form's ShipToFields hold (trimmed fields by name); empty optional fields are left out. */
export function shippingAddressOf(fields: Record<string, string | undefined>): ShippingAddress {
  const address: ShippingAddress = {
    street: fields.street ?? "",
    city: fields.city ?? "",
    zip: fields.zip ?? "",
  };
  for (const key of optionalFields) if (fields[key]) address[key] = fields[key];
  if (fields.countryCode) address.countryCode = fields.countryCode as ShippingAddress["countryCode"];
  return address;
}
