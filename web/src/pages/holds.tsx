import { useState } from "preact/hooks";
import { api, type Schemas, unwrap } from "../api/client";
import { formatDateTime, formatInteger } from "../ui/format";
import { LoadedList } from "../ui/loaded-list";
import { codeOf, useLocations } from "../ui/lookups";
import { ConfirmDialog } from "../ui/modal";
import { useProductsById } from "../ui/products-lookup";
import { choicesOf, SelectField } from "../ui/select-field";
import { Table } from "../ui/table";
import { useDocumentTitle } from "../ui/title";
import { filterFields, useUrlFilters } from "../ui/url-filters";
import { useLoad } from "../ui/use-load";

type Hold = Schemas["StockHold"];
type HoldStatus = Hold["status"];
const STATUSES: HoldStatus[] = ["active", "released", "expired", "consumed"];

/** Stock set aside by holds: what, where, until when; an active hold can be released. */
export function Holds() {
  useDocumentTitle("Holds");
  const { values, page, show } = useUrlFilters(["status"] as const);
  const status = (values.status || "active") as HoldStatus;
  const [releasing, setReleasing] = useState<Hold | null>(null);
  const holds = useLoad(
    () => unwrap(api.GET("/api/v1/inventory/holds", { params: { query: { page, pageSize: 25, status } } })),
    [page, status],
  );
  const products = useProductsById(holds.data?.items.map((h) => h.productId) ?? []);
  const locations = useLocations();
  return (
    <>
      <h1 tabIndex={-1}>Holds</h1>
      <form
        class="filters"
        aria-label="Filter holds"
        onSubmit={(event) => show({ status: filterFields(event).status ?? "", page: 1 })}
      >
        <SelectField label="Status" name="status" choices={choicesOf(STATUSES)} initial={status} />
        <button type="submit" class="button button-primary">
          Apply
        </button>
      </form>
      <LoadedList load={holds} empty={`No ${status} holds.`} onPage={(next) => show({ page: next })}>
        {(list) => (
          <Table
            label="Holds"
            columns={[
              "Product",
              { label: "Quantity", number: true },
              "Held at",
              "Reference",
              "Expires",
              { label: "Actions", hidden: true },
            ]}
          >
            {list.items.map((hold) => (
              <tr key={hold.id}>
                <td>
                  <a href={`/app/products/${hold.productId}`}>
                    {products.data?.get(hold.productId)?.sku ?? "Product"}
                  </a>
                </td>
                <td class="number">{formatInteger(hold.quantity)}</td>
                <td>
                  {hold.allocations
                    .map(
                      (a) =>
                        `${codeOf(locations.data, a.locationId)} × ${a.quantity}${a.lotNumber ? ` (lot ${a.lotNumber})` : ""}`,
                    )
                    .join(", ") || "—"}
                </td>
                <td>{hold.reference ?? "—"}</td>
                <td>{formatDateTime(hold.expiresAt)}</td>
                <td>
                  {hold.status === "active" && (
                    <button
                      type="button"
                      class="button"
                      onClick={() => setReleasing(hold)}
                      aria-label={`Release the hold on ${products.data?.get(hold.productId)?.sku ?? "this product"}`}
                    >
                      Release
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </Table>
        )}
      </LoadedList>
      {releasing && (
        <ConfirmDialog
          title="Release this hold?"
          confirmLabel="Release"
          onClose={() => setReleasing(null)}
          onConfirm={async () => {
            await unwrap(
              api.DELETE("/api/v1/inventory/holds/{id}", { params: { path: { id: releasing.id } } }),
            );
            holds.reload();
          }}
        >
          <p>Its {releasing.quantity} units become available to orders again.</p>
        </ConfirmDialog>
      )}
    </>
  );
}
