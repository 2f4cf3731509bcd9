import { useState } from "preact/hooks";
import { api, type Schemas, unwrap } from "../api/client";
import { fieldsOf, useSubmit } from "../ui/form";
import { DialogActions } from "../ui/form-dialog";
import { formatCurrency, formatDateTime, utcDay } from "../ui/format";
import { LoadedList } from "../ui/loaded-list";
import { Modal } from "../ui/modal";
import { useTenantCurrency } from "../ui/money";
import { Table } from "../ui/table";
import { useDocumentTitle } from "../ui/title";
import { filterFields, useUrlFilters } from "../ui/url-filters";
import { useLoad } from "../ui/use-load";
import {
  activityLabel,
  BillingNav,
  MerchantField,
  noMerchantPage,
  RATE_UNITS,
  rateLabel,
  useBilledMerchant,
} from "./billing-parts";
import { LOCATION_TYPES } from "./warehouses";

type RateCard = Schemas["RateCard"];
type Rate = Schemas["BillingRate"];

/** A merchant's rate cards, the latest effective first, and a new card (cards never change: a new day's card replaces). */
export function RateCards() {
  useDocumentTitle("Rate cards");
  const { values, page, show } = useUrlFilters(["merchant"] as const);
  const billed = useBilledMerchant(values.merchant, true);
  const { merchantId } = billed;
  const [creating, setCreating] = useState(false);
  // A merchant's first card is offered in the tenant's currency; a later one in the last card's.
  const tenantCurrency = useTenantCurrency();
  const cards = useLoad(
    () =>
      merchantId || billed.own
        ? unwrap(
            api.GET("/api/v1/billing/rate-cards", {
              params: { query: { page, pageSize: 10, ...(merchantId && { merchantId }) } },
            }),
          )
        : noMerchantPage<RateCard>(billed, 10),
    [page, merchantId, billed.known],
  );
  return (
    <>
      <h1 tabIndex={-1}>Rate cards</h1>
      <BillingNav />
      {!billed.own && (
        <>
          <form
            class="filters"
            aria-label="Choose a merchant"
            onSubmit={(event) => show({ merchant: filterFields(event).merchant ?? "", page: 1 })}
          >
            <MerchantField billed={billed} required />
            <button type="submit" class="button button-primary">
              Show
            </button>
          </form>
          <div class="toolbar">
            <button
              type="button"
              class="button button-primary"
              disabled={!merchantId}
              onClick={() => setCreating(true)}
            >
              New rate card
            </button>
          </div>
        </>
      )}
      <LoadedList
        load={cards}
        empty={merchantId || billed.own ? "No rate card yet: nothing is charged." : "No merchants yet."}
        onPage={(next) => show({ page: next })}
      >
        {(list) => list.items.map((card) => <RateCardView key={card.id} card={card} />)}
      </LoadedList>
      {creating && (
        <RateCardDialog
          merchantId={merchantId}
          currency={cards.data?.items[0]?.currency ?? tenantCurrency ?? "EUR"}
          onClose={() => setCreating(false)}
          onSaved={cards.reload}
        />
      )}
    </>
  );
}

function RateCardView({ card }: { card: RateCard }) {
  const title = `From ${card.effectiveFrom} in ${card.currency}`;
  return (
    <section class="rate-card" aria-label={title}>
      <h2>{title}</h2>
      <p class="muted">Made {formatDateTime(card.createdAt)}</p>
      <Table
        label={`Rates from ${card.effectiveFrom}`}
        columns={["Rate", { label: "Unit price", number: true }]}
      >
        {card.rates.map((rate) => (
          <tr key={rateLabel(rate)}>
            <td>{rateLabel(rate)}</td>
            <td class="number">{formatCurrency(rate.unitPrice, card.currency)}</td>
          </tr>
        ))}
      </Table>
    </section>
  );
}

/** Up to 4 decimals, as the API stores money; typed as text so no float rounding ever touches it. */
const PRICE = "\\d{1,10}(\\.\\d{1,4})?";

/** A rate by a type (storage by location type, packing by package type) beside the card's plain rates. */
interface TypedRate {
  key: number;
  activity: "storage" | "packing";
}

function RateCardDialog({
  merchantId,
  currency,
  onClose,
  onSaved,
}: {
  merchantId: string;
  currency: string;
  onClose: () => void;
  onSaved: () => void;
}) {
  const [typed, setTyped] = useState<TypedRate[]>([]);
  const submit = useSubmit(async (f: Record<string, string>) => {
    // A decimal of at most 14 significant digits survives Number() and JSON exactly (doubles keep 15).
    const price = (name: string) => Number(f[name]);
    const rates: Rate[] = RATE_UNITS.flatMap(([activity, units]) =>
      units
        .filter((per) => f[`${activity}.${per}`])
        .map((per) => ({ activity, per, unitPrice: price(`${activity}.${per}`) })),
    );
    for (const { key, activity } of typed) {
      const type = (f[`type.${key}`] ?? "").trim();
      rates.push({
        activity,
        per: activity === "storage" ? ((f[`per.${key}`] ?? "unit_day") as Rate["per"]) : "package",
        ...(activity === "storage" ? { locationType: type as Rate["locationType"] } : { packageType: type }),
        unitPrice: price(`price.${key}`),
      });
    }
    await unwrap(
      api.POST("/api/v1/billing/rate-cards", {
        body: {
          merchantId,
          currency: (f.currency ?? "").trim().toUpperCase(),
          effectiveFrom: f.effectiveFrom ?? "",
          rates,
        },
      }),
    );
    onSaved();
    onClose();
  });
  const add = (activity: TypedRate["activity"]) =>
    setTyped([...typed, { key: (typed.at(-1)?.key ?? 0) + 1, activity }]);
  return (
    <Modal title="New rate card" onClose={onClose}>
      <form onSubmit={(event) => void submit.run(fieldsOf(event))}>
        <div class="field-row">
          <label class="field narrow-field">
            <span>Currency</span>
            <input
              name="currency"
              required
              pattern="[A-Za-z]{3}"
              maxLength={3}
              defaultValue={currency}
              autocomplete="off"
            />
          </label>
          <label class="field">
            <span>Effective from</span>
            <input name="effectiveFrom" type="date" required defaultValue={utcDay()} />
          </label>
        </div>
        <p class="muted">Unit prices with up to 4 decimals; leave a rate empty to charge nothing for it.</p>
        {RATE_UNITS.map(([activity, units]) => (
          <fieldset key={activity} class="field rate-group">
            <legend>{activityLabel(activity)}</legend>
            <div class="field-row">
              {units.map((per) => (
                <PriceField key={per} name={`${activity}.${per}`} label={`Per ${per.replaceAll("_", " ")}`} />
              ))}
            </div>
          </fieldset>
        ))}
        {typed.map(({ key, activity }) => (
          <fieldset key={key} class="field rate-group">
            <legend>{activity === "storage" ? "Storage by location type" : "Packing by package type"}</legend>
            <div class="field-row">
              {activity === "storage" ? (
                <>
                  <label class="field">
                    <span>Location type</span>
                    <select name={`type.${key}`} required>
                      {Object.entries(LOCATION_TYPES).map(([type, label]) => (
                        <option key={type} value={type}>
                          {label}
                        </option>
                      ))}
                    </select>
                  </label>
                  <label class="field">
                    <span>Per</span>
                    <select name={`per.${key}`}>
                      <option value="unit_day">unit day</option>
                      <option value="location_day">location day</option>
                    </select>
                  </label>
                </>
              ) : (
                <label class="field">
                  <span>Package type</span>
                  <input name={`type.${key}`} required maxLength={64} autocomplete="off" />
                </label>
              )}
              <PriceField name={`price.${key}`} label="Unit price" required />
            </div>
          </fieldset>
        ))}
        <div class="toolbar">
          <button type="button" class="button" onClick={() => add("storage")}>
            Add storage rate by location type
          </button>
          <button type="button" class="button" onClick={() => add("packing")}>
            Add packing rate by package type
          </button>
        </div>
        <DialogActions submit={submit} submitLabel="Create rate card" onClose={onClose} />
      </form>
    </Modal>
  );
}

function PriceField({ name, label, required }: { name: string; label: string; required?: boolean }) {
  return (
    <label class="field narrow-field">
      <span>{label}</span>
      <input
        name={name}
        inputMode="decimal"
        pattern={PRICE}
        title="A price with up to 4 decimals, like 0.125"
        required={required}
        autocomplete="off"
      />
    </label>
  );
}
