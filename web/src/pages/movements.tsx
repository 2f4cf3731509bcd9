import { api, unwrap } from "../api/client";
import { saveFile } from "../ui/download";
import { ErrorMessage } from "../ui/error-message";
import { useSubmit } from "../ui/form";
import { formatDateTime, formatInteger, utcDay } from "../ui/format";
import { LoadedList } from "../ui/loaded-list";
import { codeOf, useLocations, useWarehouses } from "../ui/lookups";
import { PlaceFilterFields, placeOf } from "../ui/place-fields";
import { useProductsById } from "../ui/products-lookup";
import { choicesOf, SelectField } from "../ui/select-field";
import { Table } from "../ui/table";
import { useDocumentTitle } from "../ui/title";
import { filterFields, useUrlFilters } from "../ui/url-filters";
import { useLoad } from "../ui/use-load";

const REASONS = [
  "received",
  "shipped",
  "transfer_in",
  "transfer_out",
  "damaged",
  "lost",
  "found",
  "correction",
  "cycle_count",
  "expired",
  "returned",
];

/** The stock ledger: every change of every level, newest first, filtered by warehouse, location, reason and dates. */
export function Movements() {
  useDocumentTitle("Movements");
  const { values, page, show } = useUrlFilters([
    "warehouseId",
    "locationId",
    "reason",
    "from",
    "to",
  ] as const);
  const warehouses = useWarehouses();
  const locations = useLocations(values.warehouseId);
  const allLocations = useLocations();
  // Dates are whole UTC days, as the reports count them.
  const range = {
    ...(values.from && { from: `${values.from}T00:00:00.000Z` }),
    ...(values.to && { to: `${values.to}T23:59:59.999Z` }),
  };
  const scope = {
    ...(values.warehouseId && { warehouseId: values.warehouseId }),
    ...(values.locationId && { locationId: values.locationId }),
  };
  const movements = useLoad(
    () =>
      unwrap(
        api.GET("/api/v1/inventory/movements", {
          params: {
            query: {
              page,
              pageSize: 25,
              ...scope,
              ...range,
              ...(values.reason && { reason: values.reason }),
            },
          },
        }),
      ),
    [page, values.warehouseId, values.locationId, values.reason, values.from, values.to],
  );
  // The ledger names products by id; the page's products are read in one request for their SKUs.
  const products = useProductsById(movements.data?.items.map((m) => m.productId) ?? []);
  const download = useSubmit(() =>
    saveFile(
      api.GET("/api/v1/reports/stock-movements", {
        params: {
          query: { format: "csv", from: values.from || utcDay(29), to: values.to || utcDay(0), ...scope },
        },
        parseAs: "text",
      }),
      "movements.csv",
    ),
  );
  return (
    <>
      <h1 tabIndex={-1}>Movements</h1>
      <form
        class="filters"
        aria-label="Filter movements"
        onSubmit={(event) => {
          const f = filterFields(event);
          show({
            ...placeOf(f, values),
            reason: f.reason ?? "",
            from: f.from ?? "",
            to: f.to ?? "",
            page: 1,
          });
        }}
      >
        <PlaceFilterFields
          warehouses={warehouses.data}
          locations={locations.data}
          values={values}
          named={false}
        />
        <SelectField
          label="Reason"
          name="reason"
          empty="Any"
          choices={choicesOf(REASONS, (r) => r.replaceAll("_", " "))}
          initial={values.reason}
        />
        <label class="field">
          <span>From</span>
          <input name="from" type="date" defaultValue={values.from} />
        </label>
        <label class="field">
          <span>To</span>
          <input name="to" type="date" defaultValue={values.to} />
        </label>
        <button type="submit" class="button button-primary">
          Apply
        </button>
      </form>
      <div class="toolbar">
        <button type="button" class="button" onClick={() => void download.run()} disabled={download.busy}>
          Download CSV
        </button>
        <span class="muted">The report of the chosen days (the last 30 without dates).</span>
      </div>
      <ErrorMessage error={download.error} />
      <LoadedList load={movements} empty="No movements match." onPage={(next) => show({ page: next })}>
        {(list) => (
          <Table
            label="Movements"
            columns={[
              "When",
              "Product",
              "Location",
              "Lot",
              { label: "Change", number: true },
              { label: "On hand after", number: true },
              "Reason",
              "By",
            ]}
          >
            {list.items.map((m) => (
              <tr key={m.id}>
                <td>{formatDateTime(m.createdAt)}</td>
                <td>
                  <a href={`/app/products/${m.productId}`}>
                    {products.data?.get(m.productId)?.sku ?? "Product"}
                  </a>
                </td>
                <td>
                  {codeOf(warehouses.data, m.warehouseId)} {codeOf(allLocations.data, m.locationId)}
                </td>
                <td>{m.lotNumber ?? "—"}</td>
                <td class="number">{m.delta > 0 ? `+${formatInteger(m.delta)}` : formatInteger(m.delta)}</td>
                <td class="number">{formatInteger(m.onHandAfter)}</td>
                <td>
                  {m.reason.replaceAll("_", " ")}
                  {m.referenceType === "order" && m.referenceId && (
                    <>
                      {" "}
                      <a href={`/app/orders/${m.referenceId}`}>order</a>
                    </>
                  )}
                  {m.notes && <span class="muted"> ({m.notes})</span>}
                </td>
                <td>{m.actorType.replace("_", " ")}</td>
              </tr>
            ))}
          </Table>
        )}
      </LoadedList>
    </>
  );
}
