import { useState } from "preact/hooks";
import { api, unwrap } from "../api/client";
import { EditDialog } from "../ui/form-dialog";
import { Loaded } from "../ui/loaded";
import { type Location, useLocations, useWarehouses, type Warehouse } from "../ui/lookups";
import { choicesOf, SelectField } from "../ui/select-field";
import { Table } from "../ui/table";
import { useDocumentTitle } from "../ui/title";

export const LOCATION_TYPES = ["bin", "shelf", "rack", "aisle", "zone", "dock", "staging"] as const;
type LocationType = (typeof LOCATION_TYPES)[number];

/** Warehouses and their locations: create and edit both (codes sort in walking order: name bins so). */
export function Warehouses() {
  useDocumentTitle("Warehouses");
  const warehouses = useWarehouses();
  const [chosen, setChosen] = useState("");
  const [editing, setEditing] = useState<Warehouse | "new" | null>(null);
  const current = warehouses.data?.find((w) => w.id === chosen) ?? warehouses.data?.[0];
  return (
    <>
      <h1 tabIndex={-1}>Warehouses</h1>
      <div class="toolbar">
        <button type="button" class="button button-primary" onClick={() => setEditing("new")}>
          New warehouse
        </button>
      </div>
      <Loaded load={warehouses}>
        {(list) =>
          list.length === 0 ? (
            <p>No warehouses yet.</p>
          ) : (
            <Table
              label="Warehouses"
              columns={["Code", "Name", "City", "Active", { label: "Actions", hidden: true }]}
            >
              {list.map((w) => (
                <tr key={w.id} class={w.id === current?.id ? "selected" : undefined}>
                  <td>{w.code}</td>
                  <td>{w.name}</td>
                  <td>{w.address?.city ?? "—"}</td>
                  <td>{w.active ? "Yes" : "No"}</td>
                  <td>
                    <div class="row-actions">
                      <button
                        type="button"
                        class="button"
                        onClick={() => setChosen(w.id)}
                        aria-label={`Locations of ${w.code}`}
                      >
                        Locations
                      </button>
                      <button
                        type="button"
                        class="button"
                        onClick={() => setEditing(w)}
                        aria-label={`Edit ${w.code}`}
                      >
                        Edit
                      </button>
                    </div>
                  </td>
                </tr>
              ))}
            </Table>
          )
        }
      </Loaded>
      {current && <Locations warehouse={current} />}
      {editing && (
        <WarehouseDialog
          warehouse={editing === "new" ? undefined : editing}
          onClose={() => setEditing(null)}
          onSaved={warehouses.reload}
        />
      )}
    </>
  );
}

function WarehouseDialog({
  warehouse,
  onClose,
  onSaved,
}: {
  warehouse?: Warehouse;
  onClose: () => void;
  onSaved: () => void;
}) {
  const save = async (f: Record<string, string>) => {
    const body = {
      code: f.code ?? "",
      name: f.name ?? "",
      address: {
        ...(f.street && { street: f.street }),
        ...(f.city && { city: f.city }),
        ...(f.zip && { zip: f.zip }),
        ...(f.country && { country: f.country }),
      },
      active: f.active === "on",
    };
    if (warehouse)
      await unwrap(api.PUT("/api/v1/warehouses/{id}", { params: { path: { id: warehouse.id } }, body }));
    else await unwrap(api.POST("/api/v1/warehouses", { body }));
  };
  return (
    <EditDialog
      title={warehouse ? `Edit ${warehouse.code}` : "New warehouse"}
      submitLabel={warehouse ? "Save" : "Create warehouse"}
      save={save}
      onSaved={onSaved}
      onClose={onClose}
    >
      <CodeAndName record={warehouse} />
      <label class="field">
        <span>Street</span>
        <input name="street" maxLength={200} defaultValue={warehouse?.address?.street} />
      </label>
      <div class="field-row">
        <label class="field">
          <span>City</span>
          <input name="city" maxLength={100} defaultValue={warehouse?.address?.city} />
        </label>
        <label class="field narrow-field">
          <span>ZIP</span>
          <input name="zip" maxLength={20} defaultValue={warehouse?.address?.zip} />
        </label>
        <label class="field narrow-field">
          <span>Country</span>
          <input name="country" maxLength={2} defaultValue={warehouse?.address?.country} />
        </label>
      </div>
      <label class="check">
        <input type="checkbox" name="active" defaultChecked={warehouse?.active ?? true} />
        <span>Active</span>
      </label>
    </EditDialog>
  );
}

function Locations({ warehouse }: { warehouse: Warehouse }) {
  const locations = useLocations(warehouse.id);
  const [editing, setEditing] = useState<Location | "new" | null>(null);
  return (
    <section aria-labelledby="locations-heading">
      <h2 id="locations-heading">Locations of {warehouse.code}</h2>
      <div class="toolbar">
        <button type="button" class="button" onClick={() => setEditing("new")}>
          New location
        </button>
      </div>
      <Loaded load={locations}>
        {(list) => (
          <Table
            label={`Locations of ${warehouse.code}`}
            columns={["Code", "Name", "Type", "Active", { label: "Actions", hidden: true }]}
          >
            {list.map((l) => (
              <tr key={l.id}>
                <td>{l.code}</td>
                <td>{l.name}</td>
                <td>{l.type}</td>
                <td>{l.active ? "Yes" : "No"}</td>
                <td>
                  <button
                    type="button"
                    class="button"
                    onClick={() => setEditing(l)}
                    aria-label={`Edit ${l.code}`}
                  >
                    Edit
                  </button>
                </td>
              </tr>
            ))}
          </Table>
        )}
      </Loaded>
      {editing && (
        <LocationDialog
          warehouse={warehouse}
          location={editing === "new" ? undefined : editing}
          onClose={() => setEditing(null)}
          onSaved={locations.reload}
        />
      )}
    </section>
  );
}

function LocationDialog({
  warehouse,
  location,
  onClose,
  onSaved,
}: {
  warehouse: Warehouse;
  location?: Location;
  onClose: () => void;
  onSaved: () => void;
}) {
  const save = async (f: Record<string, string>) => {
    const fields = {
      code: f.code ?? "",
      name: f.name ?? "",
      type: (f.type ?? "bin") as LocationType,
      active: f.active === "on",
    };
    if (location)
      await unwrap(
        api.PUT("/api/v1/locations/{id}", { params: { path: { id: location.id } }, body: fields }),
      );
    else await unwrap(api.POST("/api/v1/locations", { body: { ...fields, warehouseId: warehouse.id } }));
  };
  return (
    <EditDialog
      title={location ? `Edit ${location.code}` : `New location in ${warehouse.code}`}
      submitLabel={location ? "Save" : "Create location"}
      save={save}
      onSaved={onSaved}
      onClose={onClose}
    >
      <CodeAndName record={location} />
      <SelectField
        label="Type"
        name="type"
        choices={choicesOf(LOCATION_TYPES)}
        initial={location?.type ?? "bin"}
      />
      <label class="check">
        <input type="checkbox" name="active" defaultChecked={location?.active ?? true} />
        <span>Active</span>
      </label>
    </EditDialog>
  );
}

/** A warehouse's or location's code and name, as created or edited. */
function CodeAndName({ record }: { record: { code: string; name: string } | undefined }) {
  return (
    <div class="field-row">
      <label class="field narrow-field">
        <span>Code</span>
        <input name="code" required maxLength={50} defaultValue={record?.code} />
      </label>
      <label class="field">
        <span>Name</span>
        <input name="name" required maxLength={200} defaultValue={record?.name} />
      </label>
    </div>
  );
}
