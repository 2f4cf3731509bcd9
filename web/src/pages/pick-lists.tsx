import { useState } from "preact/hooks";
import { useLocation } from "preact-iso";
import { api, type Schemas, unwrap } from "../api/client";
import { FilteredList, StatusFilter, useFilteredList } from "../ui/filtered-list";
import { checkedOf, useSubmit } from "../ui/form";
import { FormDialog } from "../ui/form-dialog";
import { formatDateTime, formatInteger, statusLabel } from "../ui/format";
import { Loaded } from "../ui/loaded";
import { codeOf, useWarehouses } from "../ui/lookups";
import { WarehouseChoice } from "../ui/place-fields";
import { Table } from "../ui/table";
import { useDocumentTitle } from "../ui/title";
import { useLoad } from "../ui/use-load";

type PickListStatus = Schemas["PickListSummary"]["status"];
const STATUSES: PickListStatus[] = ["open", "in_progress", "completed", "cancelled"];

/** Pick lists: what the floor is picking, with a status filter; a new one from confirmed orders. */
export function PickLists() {
  useDocumentTitle("Pick lists");
  const { route } = useLocation();
  const warehouses = useWarehouses();
  const [creating, setCreating] = useState(false);
  const lists = useFilteredList(["status"] as const, (values, page) =>
    unwrap(
      api.GET("/api/v1/pick-lists", {
        params: {
          query: { page, pageSize: 25, ...(values.status && { status: values.status as PickListStatus }) },
        },
      }),
    ),
  );
  return (
    <>
      <h1 tabIndex={-1}>Pick lists</h1>
      <div class="toolbar">
        <button type="button" class="button button-primary" onClick={() => setCreating(true)}>
          New pick list
        </button>
      </div>
      <FilteredList
        noun="pick lists"
        data={lists}
        fields={<StatusFilter statuses={STATUSES} initial={lists.values.status} />}
      >
        {(list) => (
          <Table
            label="Pick lists"
            columns={[
              "Pick list",
              "Status",
              "Warehouse",
              { label: "Orders", number: true },
              { label: "Lines", number: true },
              { label: "Picked", number: true },
              { label: "Short", number: true },
              "Created",
            ]}
          >
            {list.items.map((pickList) => (
              <tr key={pickList.id}>
                <td>
                  <a href={`/app/pick-lists/${pickList.id}`}>{pickListName(pickList.id)}</a>
                </td>
                <td>
                  <span class={`badge status-${pickList.status}`}>{statusLabel(pickList.status)}</span>
                </td>
                <td>{codeOf(warehouses.data, pickList.warehouseId)}</td>
                <td class="number">{formatInteger(pickList.orderIds.length)}</td>
                <td class="number">{formatInteger(pickList.totals.lines)}</td>
                <td class="number">
                  {formatInteger(pickList.totals.pickedQuantity)} of {formatInteger(pickList.totals.quantity)}
                </td>
                <td class="number">{formatInteger(pickList.totals.shortQuantity)}</td>
                <td>{formatDateTime(pickList.createdAt)}</td>
              </tr>
            ))}
          </Table>
        )}
      </FilteredList>
      {creating && (
        <NewPickListDialog
          onClose={() => setCreating(false)}
          onCreated={(id) => route(`/app/pick-lists/${id}`)}
        />
      )}
    </>
  );
}

/** How a pick list is named on screens: the end of its id, as counts are. */
export const pickListName = (id: string) => `Pick list ${id.slice(-6)}`;

/** Orders a pick list takes: confirmed ones, and picking ones whose earlier pick list was cancelled. */
const PICKABLE = ["confirmed", "picking"] as const;

/**
 * One warehouse's pickable sales orders to choose from: one order makes a single-order pick list, several a
 * wave. Orders without a warehouse are offered too: the API checks where their stock is reserved (and names
 * an order that is still on an open pick list).
 */
function NewPickListDialog({ onClose, onCreated }: { onClose: () => void; onCreated: (id: string) => void }) {
  const warehouses = useWarehouses();
  const [warehouseId, setWarehouseId] = useState("");
  const orders = useLoad(
    () =>
      Promise.all(
        PICKABLE.map((status) =>
          unwrap(
            api.GET("/api/v1/orders", {
              params: { query: { type: "sales", status, pageSize: 100, sort: "createdAt" } },
            }),
          ),
        ),
      ).then((pages) => pages.flatMap((p) => p.items)),
    [],
  );
  const submit = useSubmit(async (orderIds: string[]) => {
    const created = await unwrap(api.POST("/api/v1/pick-lists", { body: { warehouseId, orderIds } }));
    onCreated(created.id);
  });
  return (
    <FormDialog
      title="New pick list"
      submitLabel="Create pick list"
      submit={submit}
      onSubmit={(event) => void submit.run(checkedOf(event, "orderId"))}
      onClose={onClose}
      ready={warehouseId !== ""}
    >
      <WarehouseChoice warehouses={warehouses.data} value={warehouseId} onChange={setWarehouseId} />
      {warehouseId && (
        <Loaded load={orders}>
          {(pickable) => {
            const here = pickable.filter((o) => o.warehouseId === null || o.warehouseId === warehouseId);
            return here.length === 0 ? (
              <p>No confirmed sales orders to pick in this warehouse.</p>
            ) : (
              <fieldset class="field">
                <legend>Orders to pick (one, or several for a wave)</legend>
                <div class="check-grid">
                  {here.map((o) => (
                    <label key={o.id} class="check">
                      <input type="checkbox" name="orderId" value={o.id} />
                      <span>
                        {o.number} · {statusLabel(o.status)} · {formatInteger(o.totals.quantity)}{" "}
                        {o.totals.quantity === 1 ? "unit" : "units"}
                      </span>
                    </label>
                  ))}
                </div>
              </fieldset>
            );
          }}
        </Loaded>
      )}
    </FormDialog>
  );
}
