import { api, type Schemas, unwrap } from "../api/client";
import { FilteredList, StatusFilter, useFilteredList } from "../ui/filtered-list";
import { formatDateTime, formatInteger, statusLabel } from "../ui/format";
import { codeOf, useWarehouses } from "../ui/lookups";
import { Table } from "../ui/table";
import { useDocumentTitle } from "../ui/title";

type Shipment = Schemas["Shipment"];
type ShipmentStatus = Schemas["ShipmentStatus"];
const STATUSES: ShipmentStatus[] = ["packed", "labelled", "dispatched", "cancelled"];

/** How a shipment is named on screens: the end of its id, as pick lists are. */
export const shipmentName = (id: string) => `Shipment ${id.slice(-6)}`;

/** A weight as given (`2.5 kg`), or a dash. */
export const formatWeight = (weight: Schemas["Weight"]) => (weight ? `${weight.value} ${weight.unit}` : "—");

/** Every shipment of the tenant, newest first, with status and carrier filters. */
export function Shipments() {
  useDocumentTitle("Shipments");
  const warehouses = useWarehouses();
  const shipments = useFilteredList(["status", "carrier"] as const, (values, page) =>
    unwrap(
      api.GET("/api/v1/shipments", {
        params: {
          query: {
            page,
            pageSize: 25,
            ...(values.status && { status: values.status as ShipmentStatus }),
            ...(values.carrier && { carrier: values.carrier }),
          },
        },
      }),
    ),
  );
  return (
    <>
      <h1 tabIndex={-1}>Shipments</h1>
      <FilteredList
        noun="shipments"
        data={shipments}
        fields={
          <>
            <StatusFilter statuses={STATUSES} initial={shipments.values.status} />
            <label class="field">
              <span>Carrier</span>
              <input
                name="carrier"
                maxLength={50}
                defaultValue={shipments.values.carrier}
                placeholder="manual"
              />
            </label>
          </>
        }
      >
        {(list) => (
          <ShipmentsTable
            label="Shipments"
            shipments={list.items}
            warehouse={(id) => codeOf(warehouses.data, id)}
          />
        )}
      </FilteredList>
    </>
  );
}

/** Shipments as a table (the list, and an order's own shipments on its page). */
export function ShipmentsTable({
  label,
  shipments,
  warehouse,
}: {
  label: string;
  shipments: Shipment[];
  warehouse: (id: string | null) => string;
}) {
  return (
    <Table
      label={label}
      columns={[
        "Shipment",
        "Status",
        "Warehouse",
        "Carrier",
        { label: "Packages", number: true },
        { label: "Units", number: true },
        "Tracking",
        "Created",
      ]}
    >
      {shipments.map((shipment) => (
        <tr key={shipment.id}>
          <td>
            <a href={`/app/shipments/${shipment.id}`}>{shipmentName(shipment.id)}</a>
          </td>
          <td>
            <span class={`badge status-${shipment.status}`}>{statusLabel(shipment.status)}</span>
          </td>
          <td>{warehouse(shipment.warehouseId)}</td>
          <td>{shipment.carrier ?? "—"}</td>
          <td class="number">{formatInteger(shipment.packages.length)}</td>
          <td class="number">
            {formatInteger(
              shipment.packages.reduce((n, p) => n + p.lines.reduce((m, l) => m + l.quantity, 0), 0),
            )}
          </td>
          <td>
            {shipment.packages
              .map((p) => p.trackingNumber)
              .filter(Boolean)
              .join(", ") || "—"}
          </td>
          <td>{formatDateTime(shipment.createdAt)}</td>
        </tr>
      ))}
    </Table>
  );
}
