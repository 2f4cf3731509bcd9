import { api, type Schemas, unwrap } from "../api/client";
import { formatCurrency, formatDateTime, formatInteger, utcDay } from "../ui/format";
import { LoadedList } from "../ui/loaded-list";
import { useOrdersById } from "../ui/orders-lookup";
import { Table } from "../ui/table";
import { useDocumentTitle } from "../ui/title";
import { filterFields, useUrlFilters } from "../ui/url-filters";
import { useLoad } from "../ui/use-load";
import { BillingNav, MerchantField, noMerchantPage, rateLabel, useBilledMerchant } from "./billing-parts";
import { shipmentName } from "./shipments";

type Charge = Schemas["BillingCharge"];
type Order = Schemas["OrderSummary"];

/** A merchant's charges over a range of days (the API's limit is 92), each with what it was for. */
export function Charges() {
  useDocumentTitle("Charges");
  const { values, page, show } = useUrlFilters(["merchant", "from", "to"] as const);
  const billed = useBilledMerchant(values.merchant, true);
  const { merchantId } = billed;
  const from = values.from || `${utcDay().slice(0, 8)}01`;
  const to = values.to || utcDay();
  const charges = useLoad(
    () =>
      merchantId
        ? unwrap(
            api.GET("/api/v1/billing/charges", {
              params: { query: { page, pageSize: 25, from, to, ...(!billed.own && { merchantId }) } },
            }),
          )
        : noMerchantPage<Charge>(billed, 25),
    [page, merchantId, billed.known, from, to],
  );
  // Receipts and picks name their order by id: the page's orders are read in one request for their numbers.
  const orders = useOrdersById(
    (charges.data?.items ?? []).flatMap((c) =>
      c.reference.type === "receipt" || c.reference.type === "order" ? [c.reference.id] : [],
    ),
  );
  return (
    <>
      <h1 tabIndex={-1}>Charges</h1>
      <BillingNav />
      <form
        class="filters"
        aria-label="Filter charges"
        onSubmit={(event) => {
          const { merchant = "", from = "", to = "" } = filterFields(event);
          show({ merchant, from, to, page: 1 });
        }}
      >
        <MerchantField billed={billed} required />
        <label class="field">
          <span>From</span>
          <input name="from" type="date" required defaultValue={from} />
        </label>
        <label class="field">
          <span>To</span>
          <input name="to" type="date" required defaultValue={to} />
        </label>
        <button type="submit" class="button button-primary">
          Apply
        </button>
      </form>
      <LoadedList
        load={charges}
        empty={merchantId ? "No charges in these days." : "No merchants yet."}
        onPage={(next) => show({ page: next })}
      >
        {(list) => (
          <Table
            label="Charges"
            columns={[
              "Day",
              "Charge",
              { label: "Quantity", number: true },
              { label: "Unit price", number: true },
              { label: "Amount", number: true },
              "For",
            ]}
          >
            {list.items.map((charge, index) => (
              <tr key={`${charge.reference.id}.${charge.per}.${index}`}>
                <td>{charge.date}</td>
                <td>{rateLabel(charge)}</td>
                <td class="number">{formatInteger(charge.quantity)}</td>
                <td class="number">{formatCurrency(charge.unitPrice, charge.currency)}</td>
                <td class="number">{formatCurrency(charge.amountExact, charge.currency)}</td>
                <td>
                  <ChargeFor charge={charge} order={orders.data?.get(charge.reference.id)} />
                </td>
              </tr>
            ))}
          </Table>
        )}
      </LoadedList>
    </>
  );
}

/** What a charge was for, linked to its record: the order, shipment or return (a snapshot has no page). */
function ChargeFor({ charge, order }: { charge: Charge; order: Order | undefined }) {
  const { type, id, at } = charge.reference;
  const number = order?.number ?? id.slice(-6);
  switch (type) {
    case "receipt":
      return <a href={`/app/orders/${id}`}>{`Receipt of ${number}, ${formatDateTime(at)}`}</a>;
    case "order":
      return <a href={`/app/orders/${id}`}>{`Picks of ${number}`}</a>;
    case "shipment":
      return <a href={`/app/shipments/${id}`}>{shipmentName(id)}</a>;
    case "return":
      return <a href={`/app/returns/${id}`}>{`Return ${id.slice(-6)}`}</a>;
    default:
      return <>Storage on {charge.date}</>;
  }
}
