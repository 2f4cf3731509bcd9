import { useState } from "preact/hooks";
import { api, type Schemas, unwrap } from "../api/client";
import { ErrorMessage } from "../ui/error-message";
import { useSubmit } from "../ui/form";
import { EditDialog } from "../ui/form-dialog";
import { formatInteger } from "../ui/format";
import { LoadedList } from "../ui/loaded-list";
import { codeOf, locationChoices, useLocations, useWarehouses } from "../ui/lookups";
import { PlaceFilterFields, placeOf } from "../ui/place-fields";
import { choicesOf, SelectField } from "../ui/select-field";
import { QuantityOrSerials, serialsBody } from "../ui/serials-field";
import { Table } from "../ui/table";
import { useDocumentTitle } from "../ui/title";
import { filterFields, useUrlFilters } from "../ui/url-filters";
import { useLoad } from "../ui/use-load";
import { AddStockDialog } from "./add-stock";
import { downloadStockCsv, type StockFilters, stockQuery } from "./stock-csv";

type Level = Schemas["StockLevel"];
const REASONS = ["received", "found", "damaged", "lost", "expired", "correction", "returned"];

/** Stock per product, location and lot, with what is reserved and what is free to promise. */
export function Stock() {
  useDocumentTitle("Stock");
  const { values, page, show } = useUrlFilters([
    "warehouseId",
    "locationId",
    "search",
    "lotNumber",
    "sellable",
    "low",
  ] as const);
  const warehouses = useWarehouses();
  const locations = useLocations(values.warehouseId);
  const [adjusting, setAdjusting] = useState<Level | null>(null);
  const [moving, setMoving] = useState<Level | null>(null);
  const [adding, setAdding] = useState(false);
  const filters: StockFilters = values;
  // The CSV holds every level the filters show, on every page of the list.
  const download = useSubmit(() => downloadStockCsv(filters, (id) => codeOf(warehouses.data, id)));
  const stock = useLoad(async () => {
    const list = await unwrap(
      api.GET("/api/v1/inventory/stock", {
        params: { query: { page, pageSize: 25, ...stockQuery(filters) } },
      }),
    );
    // Without asOf every item is a current level (with reserved and available).
    return { ...list, items: list.items.flatMap((level) => ("reserved" in level ? [level] : [])) };
  }, [
    page,
    values.warehouseId,
    values.locationId,
    values.search,
    values.lotNumber,
    values.sellable,
    values.low,
  ]);

  return (
    <>
      <h1 tabIndex={-1}>Stock</h1>
      <form
        class="filters"
        aria-label="Filter stock"
        onSubmit={(event) => {
          const f = filterFields(event);
          show({
            ...placeOf(f, values),
            search: f.search ?? "",
            lotNumber: f.lotNumber ?? "",
            sellable: f.sellable ?? "",
            low: f.low ? "1" : "",
            page: 1,
          });
        }}
      >
        <PlaceFilterFields warehouses={warehouses.data} locations={locations.data} values={values} />
        <label class="field">
          <span>Search</span>
          <input
            name="search"
            type="search"
            defaultValue={values.search}
            maxLength={100}
            placeholder="SKU start or name"
          />
        </label>
        <label class="field">
          <span>Lot</span>
          <input name="lotNumber" defaultValue={values.lotNumber} maxLength={100} />
        </label>
        <SelectField
          label="Sellable"
          name="sellable"
          empty="Sellable and not"
          choices={[
            { value: "true", label: "Sellable" },
            { value: "false", label: "Non-sellable (quarantine)" },
          ]}
          initial={values.sellable}
        />
        <label class="check field">
          <input type="checkbox" name="low" defaultChecked={values.low !== ""} />
          <span>Below reorder point</span>
        </label>
        <button type="submit" class="button button-primary">
          Apply
        </button>
      </form>
      <div class="toolbar">
        <button type="button" class="button button-primary" onClick={() => setAdding(true)}>
          Add stock
        </button>
        <button type="button" class="button" onClick={() => void download.run()} disabled={download.busy}>
          Download CSV
        </button>
      </div>
      <ErrorMessage error={download.error} />
      <LoadedList load={stock} empty="No stock matches." onPage={(next) => show({ page: next })}>
        {(list) => (
          <Table
            label="Stock"
            columns={[
              "Product",
              "Warehouse",
              "Location",
              "Lot",
              "Sellable",
              { label: "On hand", number: true },
              { label: "Reserved", number: true },
              { label: "Available", number: true },
              { label: "Actions", hidden: true },
            ]}
          >
            {list.items.map((level) => (
              <tr key={`${level.productId}:${level.locationId}:${level.lotId ?? ""}`}>
                <td>
                  <a href={`/app/products/${level.productId}`}>{level.sku}</a> {level.productName}
                </td>
                <td>{codeOf(warehouses.data, level.warehouseId)}</td>
                <td>{level.locationCode}</td>
                <td>
                  {level.lotNumber ?? "—"}
                  {level.expiresAt && <span class="muted"> expires {level.expiresAt}</span>}
                </td>
                <td>{level.sellable ? "Yes" : <span class="badge">Non-sellable</span>}</td>
                <td class="number">{formatInteger(level.onHand)}</td>
                <td class="number">{formatInteger(level.reserved)}</td>
                <td class="number">{formatInteger(level.available)}</td>
                <td>
                  <div class="row-actions">
                    <button
                      type="button"
                      class="button"
                      aria-label={`Adjust ${level.sku} at ${level.locationCode}`}
                      onClick={() => setAdjusting(level)}
                    >
                      Adjust
                    </button>
                    <button
                      type="button"
                      class="button"
                      aria-label={`Transfer ${level.sku} from ${level.locationCode}`}
                      onClick={() => setMoving(level)}
                    >
                      Transfer
                    </button>
                  </div>
                </td>
              </tr>
            ))}
          </Table>
        )}
      </LoadedList>
      {adjusting && (
        <AdjustDialog level={adjusting} onClose={() => setAdjusting(null)} onDone={stock.reload} />
      )}
      {adding && <AddStockDialog onClose={() => setAdding(false)} onDone={stock.reload} />}
      {moving && <TransferDialog level={moving} onClose={() => setMoving(null)} onDone={stock.reload} />}
    </>
  );
}

const where = (level: Level) =>
  `${level.sku} at ${level.locationCode}${level.lotNumber ? `, lot ${level.lotNumber}` : ""}`;

/** A signed change of one level with its reason: the ledger records both. */
function AdjustDialog({ level, onClose, onDone }: { level: Level; onClose: () => void; onDone: () => void }) {
  const save = (fields: Record<string, string>) =>
    unwrap(
      api.POST("/api/v1/inventory/adjustments", {
        body: {
          productId: level.productId,
          locationId: level.locationId,
          quantity: Number(fields.quantity),
          reason: fields.reason ?? "correction",
          ...(fields.notes && { notes: fields.notes }),
          ...(level.lotNumber && { lotNumber: level.lotNumber }),
          ...serialsBody(fields),
        },
      }),
    );
  return (
    <EditDialog
      title={`Adjust ${where(level)}`}
      submitLabel="Adjust"
      save={save}
      onSaved={onDone}
      onClose={onClose}
    >
      <p class="muted">
        On hand {level.onHand}, reserved {level.reserved}. A negative quantity removes stock.
      </p>
      <QuantityOrSerials productId={level.productId} signed />
      <SelectField label="Reason" name="reason" choices={choicesOf(REASONS)} initial="correction" />
      <label class="field">
        <span>Notes (optional)</span>
        <input name="notes" maxLength={500} />
      </label>
    </EditDialog>
  );
}

/** Moves units of one level to another location (of any warehouse). */
function TransferDialog({
  level,
  onClose,
  onDone,
}: {
  level: Level;
  onClose: () => void;
  onDone: () => void;
}) {
  const locations = useLocations();
  const warehouses = useWarehouses();
  const save = (fields: Record<string, string>) =>
    unwrap(
      api.POST("/api/v1/inventory/transfers", {
        body: {
          productId: level.productId,
          fromLocationId: level.locationId,
          toLocationId: fields.toLocationId ?? "",
          quantity: Number(fields.quantity),
          ...(fields.notes && { notes: fields.notes }),
          ...(level.lotNumber && { lotNumber: level.lotNumber }),
          ...serialsBody(fields),
        },
      }),
    );
  return (
    <EditDialog
      title={`Transfer ${where(level)}`}
      submitLabel="Transfer"
      save={save}
      onSaved={onDone}
      onClose={onClose}
    >
      <p class="muted">{level.available} available to move.</p>
      <QuantityOrSerials productId={level.productId} signed={false} />
      <SelectField
        label="To location"
        name="toLocationId"
        required
        empty="Choose…"
        choices={locationChoices(
          locations.data?.filter((l) => l.id !== level.locationId),
          warehouses.data,
        )}
      />
      <label class="field">
        <span>Notes (optional)</span>
        <input name="notes" maxLength={500} />
      </label>
    </EditDialog>
  );
}
