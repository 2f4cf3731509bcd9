import { useEffect, useState } from "preact/hooks";
import { api, type Schemas, unwrap } from "../api/client";
import { type AsRead, replacementOf } from "../ui/edits";
import { EditDialog } from "../ui/form-dialog";
import { Loaded } from "../ui/loaded";
import { type Location, locationsOf, useLocations, useWarehouses, type Warehouse } from "../ui/lookups";
import { SelectField } from "../ui/select-field";
import { Table } from "../ui/table";
import { useDocumentTitle } from "../ui/title";

type LocationRequest = Schemas["UpdateLocationRequest"];
type WarehouseRequest = Schemas["WarehouseRequest"];
type Address = NonNullable<Warehouse["address"]>;

// Every type the API has (a Record over its union: a type it adds fails the build until it is offered here).
export const LOCATION_TYPES: Record<Location["type"], string> = {
  bin: "Bin",
  shelf: "Shelf",
  rack: "Rack",
  aisle: "Aisle",
  zone: "Zone",
  dock: "Dock",
  staging: "Staging",
  packing: "Packing",
};

/** Warehouses and their locations: create and edit both (codes sort in walking order: name bins so). */
export function Warehouses() {
  useDocumentTitle("Warehouses");
  const warehouses = useWarehouses();
  // Every warehouse's locations are one read, started alongside the warehouses' rather than after them.
  useEffect(() => void locationsOf(), []);
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

/** A warehouse as its PUT takes it back: every field as read. */
const warehouseAsRead = (w: Warehouse): AsRead<WarehouseRequest> => ({
  code: w.code,
  name: w.name,
  address: w.address ?? undefined,
  active: w.active,
});

/** The form's address lines over the address as read, so a field it does not show (state) is kept. */
function addressOf(f: Record<string, string>, read: Address | undefined): Address | undefined {
  const lines = { street: f.street, city: f.city, zip: f.zip, country: f.country };
  const address = Object.fromEntries(
    Object.entries({ ...read, ...lines }).filter(([, value]) => value !== undefined && value !== ""),
  );
  return Object.keys(address).length === 0 && !read ? undefined : address;
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
    const read = warehouse && warehouseAsRead(warehouse);
    const edited = {
      code: f.code ?? "",
      name: f.name ?? "",
      address: addressOf(f, read?.address),
      active: f.active === "on",
    };
    if (!warehouse || !read) return unwrap(api.POST("/api/v1/warehouses", { body: edited }));
    const body = replacementOf(read, edited);
    if (body)
      await unwrap(api.PUT("/api/v1/warehouses/{id}", { params: { path: { id: warehouse.id } }, body }));
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
            columns={[
              "Code",
              "Name",
              "Type",
              "Inside",
              { label: "Pick sequence", number: true },
              "Sellable",
              "Active",
              { label: "Actions", hidden: true },
            ]}
          >
            {list.map((l) => (
              <tr key={l.id}>
                <td>{l.code}</td>
                <td>{l.name}</td>
                <td>{LOCATION_TYPES[l.type]}</td>
                <td>{list.find((p) => p.id === l.parentId)?.code ?? "—"}</td>
                <td class="number">{l.pickSequence ?? "—"}</td>
                <td>{l.sellable ? "Yes" : "No (quarantine)"}</td>
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
          siblings={locations.data ?? []}
          onClose={() => setEditing(null)}
          onSaved={locations.reload}
        />
      )}
    </section>
  );
}

/** A location as its PUT takes it back: every field as read. */
const locationAsRead = (l: Location): AsRead<LocationRequest> => ({
  code: l.code,
  name: l.name,
  type: l.type,
  parentId: l.parentId,
  pickSequence: l.pickSequence,
  active: l.active,
  sellable: l.sellable,
});

function LocationDialog({
  warehouse,
  location,
  siblings,
  onClose,
  onSaved,
}: {
  warehouse: Warehouse;
  location?: Location;
  /** The warehouse's locations: a parent is one of them. */
  siblings: Location[];
  onClose: () => void;
  onSaved: () => void;
}) {
  const save = async (f: Record<string, string>) => {
    const edited = {
      code: f.code ?? "",
      name: f.name ?? "",
      type: (f.type ?? "bin") as Location["type"],
      parentId: f.parentId || null,
      pickSequence: f.pickSequence ? Number(f.pickSequence) : null,
      sellable: f.sellable === "on",
      active: f.active === "on",
    };
    if (!location)
      return unwrap(api.POST("/api/v1/locations", { body: { ...edited, warehouseId: warehouse.id } }));
    const body = replacementOf(locationAsRead(location), edited);
    if (body)
      await unwrap(api.PUT("/api/v1/locations/{id}", { params: { path: { id: location.id } }, body }));
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
      <div class="field-row">
        <SelectField
          label="Type"
          name="type"
          choices={Object.entries(LOCATION_TYPES).map(([value, label]) => ({ value, label }))}
          initial={location?.type ?? "bin"}
        />
        <SelectField
          label="Inside (parent)"
          name="parentId"
          empty="None"
          choices={siblings.filter((l) => l.id !== location?.id).map((l) => ({ value: l.id, label: l.code }))}
          initial={location?.parentId ?? ""}
        />
        <label class="field narrow-field">
          <span>Pick sequence</span>
          <input
            name="pickSequence"
            type="number"
            min={0}
            step={1}
            inputMode="numeric"
            defaultValue={location?.pickSequence == null ? "" : String(location.pickSequence)}
          />
        </label>
      </div>
      <label class="check">
        <input type="checkbox" name="sellable" defaultChecked={location?.sellable ?? true} />
        <span>
          Sellable (clear it for quarantine: stock here counts on hand but is never available or picked)
        </span>
      </label>
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
