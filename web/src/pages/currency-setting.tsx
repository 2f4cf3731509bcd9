import { useState } from "preact/hooks";
import { api, unwrap } from "../api/client";
import { useSession } from "../session/session";
import { ErrorMessage } from "../ui/error-message";
import { fieldsOf, useSubmit } from "../ui/form";
import { tenantCurrencyChanged, useTenantCurrency } from "../ui/money";
import { SelectField } from "../ui/select-field";

// Every ISO 4217 code the browser can format, by code and English name ("EUR · Euro").
const names = new Intl.DisplayNames(["en"], { type: "currency" });
const currencies = Intl.supportedValuesOf("currency").map((code) => ({
  value: code,
  label: `${code} · ${names.of(code) ?? code}`,
}));

/**
 * The tenant's currency (PATCH /settings): the one every amount outside billing is shown in. Saving relabels the
 * amounts on every page at once; it converts nothing.
 */
export function CurrencySetting() {
  const { tenantId } = useSession();
  const current = useTenantCurrency();
  const [saved, setSaved] = useState<string | null>(null);
  const submit = useSubmit(async (currency: string | null) => {
    const settings = await unwrap(api.PATCH("/api/v1/settings", { body: { currency } }));
    if (tenantId) tenantCurrencyChanged(tenantId, settings.currency);
    setSaved(settings.currency ?? "none");
  });
  return (
    <section aria-labelledby="currency-heading" class="card narrow">
      <h2 id="currency-heading">Currency</h2>
      <p class="muted">
        Prices, costs, order totals and stock value are shown in it. Changing it converts nothing. A rate card
        names its own currency (a merchant may be billed in another); a merchant's first card is offered in
        this one.
      </p>
      <form
        onSubmit={(event) => {
          const { currency = "" } = fieldsOf(event);
          setSaved(null);
          void submit.run(currency || null);
        }}
      >
        <SelectField
          key={current ?? ""}
          label="Currency"
          name="currency"
          empty="None (plain amounts)"
          choices={currencies}
          initial={current ?? ""}
        />
        <ErrorMessage error={submit.error} />
        {saved && (
          <p class="alert alert-info" role="status">
            Saved: amounts are shown in {saved === "none" ? "no currency" : saved}.
          </p>
        )}
        <button type="submit" class="button button-primary" disabled={submit.busy}>
          Save currency
        </button>
      </form>
    </section>
  );
}
