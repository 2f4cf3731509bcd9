import { api, unwrap } from "../api/client";
import { utcDay } from "../ui/format";
import { LoadedList } from "../ui/loaded-list";
import { useProductsById } from "../ui/products-lookup";
import { SelectField } from "../ui/select-field";
import { Table } from "../ui/table";
import { useDocumentTitle } from "../ui/title";
import { filterFields, useUrlFilters } from "../ui/url-filters";
import { useLoad } from "../ui/use-load";

/** Lots and what expires when; each lot links to its stock (where it is). */
export function Lots() {
  useDocumentTitle("Lots and expiry");
  const { values, page, show } = useUrlFilters(["within", "expired", "number"] as const);
  const within = values.within || "90";
  const lots = useLoad(
    () =>
      unwrap(
        api.GET("/api/v1/lots", {
          params: {
            query: {
              page,
              pageSize: 25,
              ...(values.number && { number: values.number }),
              ...(values.expired
                ? { expired: "true" as const }
                : within !== "all" && { expiringBefore: utcDay(-Number(within)), expired: "false" as const }),
            },
          },
        }),
      ),
    [page, within, values.expired, values.number],
  );
  const products = useProductsById(lots.data?.items.map((l) => l.productId) ?? []);
  return (
    <>
      <h1 tabIndex={-1}>Lots and expiry</h1>
      <form
        class="filters"
        aria-label="Filter lots"
        onSubmit={(event) => {
          const f = filterFields(event);
          show({ within: f.within ?? "", expired: f.expired ? "1" : "", number: f.number ?? "", page: 1 });
        }}
      >
        <SelectField
          label="Expiring within"
          name="within"
          choices={[
            { value: "30", label: "30 days" },
            { value: "90", label: "90 days" },
            { value: "365", label: "a year" },
            { value: "all", label: "any time" },
          ]}
          initial={within}
        />
        <label class="field">
          <span>Lot number</span>
          <input name="number" defaultValue={values.number} maxLength={100} />
        </label>
        <label class="check field">
          <input type="checkbox" name="expired" defaultChecked={values.expired !== ""} />
          <span>Expired only</span>
        </label>
        <button type="submit" class="button button-primary">
          Apply
        </button>
      </form>
      <LoadedList load={lots} empty="No lots match." onPage={(next) => show({ page: next })}>
        {(list) => (
          <Table label="Lots" columns={["Lot", "Product", "Expires", "Made", "Where"]}>
            {list.items.map((lot) => (
              <tr key={lot.id} class={lot.expired ? "variance" : undefined}>
                <td>{lot.number}</td>
                <td>
                  <a href={`/app/products/${lot.productId}`}>
                    {products.data?.get(lot.productId)?.sku ?? "Product"}
                  </a>{" "}
                  {products.data?.get(lot.productId)?.name}
                </td>
                <td>
                  {lot.expiresAt ?? "—"}
                  {lot.expired && <strong> (expired)</strong>}
                </td>
                <td>{lot.manufacturedAt ?? "—"}</td>
                <td>
                  <a href={`/app/stock?lotNumber=${encodeURIComponent(lot.number)}`}>Stock of this lot</a>
                </td>
              </tr>
            ))}
          </Table>
        )}
      </LoadedList>
    </>
  );
}
