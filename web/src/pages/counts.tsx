import { useState } from "preact/hooks";
import { useLocation } from "preact-iso";
import { api, type Schemas, unwrap } from "../api/client";
import { ErrorMessage } from "../ui/error-message";
import { useSubmit } from "../ui/form";
import { formatDateTime } from "../ui/format";
import { LoadedList } from "../ui/loaded-list";
import { codeOf, useLocations, useWarehouses, warehouseChoices } from "../ui/lookups";
import { Modal } from "../ui/modal";
import { choicesOf, SelectField } from "../ui/select-field";
import { Table } from "../ui/table";
import { useDocumentTitle } from "../ui/title";
import { filterFields, useUrlFilters } from "../ui/url-filters";
import { useLoad } from "../ui/use-load";

type CountStatus = Schemas["InventoryCount"]["status"];
const STATUSES: CountStatus[] = ["open", "submitted", "approved", "cancelled"];

/** Cycle counts: open ones to count, submitted ones to review and approve. */
export function Counts() {
  useDocumentTitle("Cycle counts");
  const { route } = useLocation();
  const { values, page, show } = useUrlFilters(["status"] as const);
  const warehouses = useWarehouses();
  const [creating, setCreating] = useState(false);
  const counts = useLoad(
    () =>
      unwrap(
        api.GET("/api/v1/inventory/counts", {
          params: {
            query: { page, pageSize: 25, ...(values.status && { status: values.status as CountStatus }) },
          },
        }),
      ),
    [page, values.status],
  );
  return (
    <>
      <h1 tabIndex={-1}>Cycle counts</h1>
      <div class="toolbar">
        <button type="button" class="button button-primary" onClick={() => setCreating(true)}>
          New count
        </button>
      </div>
      <form
        class="filters"
        aria-label="Filter counts"
        onSubmit={(event) => show({ status: filterFields(event).status ?? "", page: 1 })}
      >
        <SelectField
          label="Status"
          name="status"
          empty="Any"
          choices={choicesOf(STATUSES)}
          initial={values.status}
        />
        <button type="submit" class="button button-primary">
          Apply
        </button>
      </form>
      <LoadedList load={counts} empty="No counts yet." onPage={(next) => show({ page: next })}>
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
      </LoadedList>
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
  const submit = useSubmit(async (form: HTMLFormElement) => {
    const chosen = new FormData(form).getAll("locationId").map(String);
    const count = await unwrap(
      api.POST("/api/v1/inventory/counts", {
        body: chosen.length > 0 ? { locationIds: chosen } : { warehouseId },
      }),
    );
    onCreated(count.id);
  });
  return (
    <Modal title="New count" onClose={onClose}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void submit.run(event.currentTarget);
        }}
      >
        <SelectField
          label="Warehouse"
          required
          empty="Choose…"
          choices={warehouseChoices(warehouses.data)}
          value={warehouseId}
          onChange={setWarehouseId}
        />
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
        <ErrorMessage error={submit.error} />
        <div class="actions">
          <button type="button" class="button" onClick={onClose} disabled={submit.busy}>
            Cancel
          </button>
          <button type="submit" class="button button-primary" disabled={submit.busy}>
            Start count
          </button>
        </div>
      </form>
    </Modal>
  );
}
