import { useState } from "preact/hooks";
import { useLocation } from "preact-iso";
import { api, type Schemas, unwrap } from "../api/client";
import { FilteredList, StatusFilter, useFilteredList } from "../ui/filtered-list";
import { checkedOf, useSubmit } from "../ui/form";
import { FormDialog } from "../ui/form-dialog";
import { formatDateTime } from "../ui/format";
import { codeOf, useLocations, useWarehouses } from "../ui/lookups";
import { WarehouseChoice } from "../ui/place-fields";
import { Table } from "../ui/table";
import { useDocumentTitle } from "../ui/title";

type CountStatus = Schemas["InventoryCount"]["status"];
const STATUSES: CountStatus[] = ["open", "submitted", "approved", "cancelled"];

/** Cycle counts: open ones to count, submitted ones to review and approve. */
export function Counts() {
  useDocumentTitle("Cycle counts");
  const { route } = useLocation();
  const counts = useFilteredList(["status"] as const, ({ status }, page) =>
    unwrap(
      api.GET("/api/v1/inventory/counts", {
        params: { query: { page, pageSize: 25, ...(status && { status: status as CountStatus }) } },
      }),
    ),
  );
  const warehouses = useWarehouses();
  const [creating, setCreating] = useState(false);
  return (
    <>
      <h1 tabIndex={-1}>Cycle counts</h1>
      <div class="toolbar">
        <button type="button" class="button button-primary" onClick={() => setCreating(true)}>
          New count
        </button>
      </div>
      <FilteredList
        noun="counts"
        data={counts}
        fields={<StatusFilter statuses={STATUSES} initial={counts.values.status} />}
      >
        {(list) => (
          <Table label="Cycle counts" columns={["Count", "Status", "Warehouse", "Created", "Submitted"]}>
            {list.items.map((count) => (
              <tr key={count.id}>
                <td>
                  <a href={`/app/counts/${count.id}`}>Count {count.id.slice(-6)}</a>
                </td>
                <td>
                  <span class={`badge status-${count.status}`}>{count.status}</span>
                </td>
                <td>{codeOf(warehouses.data, count.warehouseId)}</td>
                <td>{formatDateTime(count.createdAt)}</td>
                <td>{formatDateTime(count.submittedAt)}</td>
              </tr>
            ))}
          </Table>
        )}
      </FilteredList>
      {creating && (
        <NewCountDialog onClose={() => setCreating(false)} onCreated={(id) => route(`/app/counts/${id}`)} />
      )}
    </>
  );
}

/** A count of a whole warehouse, or of chosen locations: the API snapshots what each should hold. */
function NewCountDialog({ onClose, onCreated }: { onClose: () => void; onCreated: (id: string) => void }) {
  const warehouses = useWarehouses();
  const [warehouseId, setWarehouseId] = useState("");
  const locations = useLocations(warehouseId);
  const submit = useSubmit(async (chosen: string[]) => {
    const count = await unwrap(
      api.POST("/api/v1/inventory/counts", {
        body: chosen.length > 0 ? { locationIds: chosen } : { warehouseId },
      }),
    );
    onCreated(count.id);
  });
  return (
    <FormDialog
      title="New count"
      submitLabel="Start count"
      submit={submit}
      onSubmit={(event) => void submit.run(checkedOf(event, "locationId"))}
      onClose={onClose}
    >
      <WarehouseChoice warehouses={warehouses.data} value={warehouseId} onChange={setWarehouseId} />
      {warehouseId && (
        <fieldset class="field">
          <legend>Locations (none chosen: the whole warehouse)</legend>
          <div class="check-grid">
            {locations.data?.map((l) => (
              <label key={l.id} class="check">
                <input type="checkbox" name="locationId" value={l.id} />
                <span>{l.code}</span>
              </label>
            ))}
          </div>
        </fieldset>
      )}
    </FormDialog>
  );
}
