import { useState } from "preact/hooks";
import { useRoute } from "preact-iso";
import { api, type Schemas, unwrap } from "../api/client";
import { formatDateTime, formatInteger, statusLabel } from "../ui/format";
import { Loaded } from "../ui/loaded";
import { codeOf, useWarehouses } from "../ui/lookups";
import { ConfirmDialog } from "../ui/modal";
import { useOrdersById } from "../ui/orders-lookup";
import { Table } from "../ui/table";
import { useDocumentTitle } from "../ui/title";
import { useLoad } from "../ui/use-load";
import { pickListName } from "./pick-lists";

type PickList = Schemas["PickList"];

/** One pick list: its lines in walking order with what was picked and short, Pick on the floor, Cancel. */
export function PickListPage() {
  const { params } = useRoute();
  const id = params.id ?? "";
  const pickList = useLoad(
    () => unwrap(api.GET("/api/v1/pick-lists/{id}", { params: { path: { id } } })),
    [id],
  );
  useDocumentTitle(pickListName(id));
  return (
    <>
      <p>
        <a href="/app/pick-lists">← Pick lists</a>
      </p>
      <h1 tabIndex={-1}>{pickListName(id)}</h1>
      <Loaded load={pickList}>{(p) => <PickListBody pickList={p} onChanged={pickList.reload} />}</Loaded>
    </>
  );
}

function PickListBody({ pickList, onChanged }: { pickList: PickList; onChanged: () => void }) {
  const warehouses = useWarehouses();
  const orders = useOrdersById(pickList.orderIds);
  const [cancelling, setCancelling] = useState(false);
  const active = pickList.status === "open" || pickList.status === "in_progress";
  const lines = [...pickList.lines].sort((a, b) => a.lineNo - b.lineNo);
  const total = (pick: (line: (typeof lines)[number]) => number) => lines.reduce((n, l) => n + pick(l), 0);
  return (
    <>
      <dl class="details">
        <dt>Status</dt>
        <dd>
          <span class={`badge status-${pickList.status}`}>{statusLabel(pickList.status)}</span>
        </dd>
        <dt>Warehouse</dt>
        <dd>{codeOf(warehouses.data, pickList.warehouseId)}</dd>
        <dt>Progress</dt>
        <dd>
          {formatInteger(total((l) => l.pickedQuantity))} of {formatInteger(total((l) => l.quantity))} units
          picked, {formatInteger(total((l) => l.shortQuantity))} short
        </dd>
        <dt>Created</dt>
        <dd>{formatDateTime(pickList.createdAt)}</dd>
        {pickList.completedAt && (
          <>
            <dt>Completed</dt>
            <dd>{formatDateTime(pickList.completedAt)}</dd>
          </>
        )}
        {pickList.cancelledAt && (
          <>
            <dt>Cancelled</dt>
            <dd>{formatDateTime(pickList.cancelledAt)}</dd>
          </>
        )}
      </dl>
      {active && (
        <div class="toolbar">
          <a class="button button-primary" href={`/app/pick/${pickList.id}`}>
            Pick
          </a>
          <button type="button" class="button button-danger" onClick={() => setCancelling(true)}>
            Cancel pick list
          </button>
        </div>
      )}
      {cancelling && (
        <ConfirmDialog
          title={`Cancel ${pickListName(pickList.id)}?`}
          confirmLabel="Cancel pick list"
          onClose={() => setCancelling(false)}
          onConfirm={async () => {
            await unwrap(
              api.POST("/api/v1/pick-lists/{id}/cancel", { params: { path: { id: pickList.id } } }),
            );
            onChanged();
          }}
        >
          <p>
            Units already picked stay at the packing location, reserved for their orders; the orders keep
            their reservations and can go on a new pick list.
          </p>
        </ConfirmDialog>
      )}
      <Table
        label="Pick list lines in walking order"
        columns={[
          { label: "Line", number: true },
          "Location",
          "Product",
          "Lot",
          "Order",
          { label: "Quantity", number: true },
          { label: "Picked", number: true },
          { label: "Short", number: true },
          "Status",
        ]}
      >
        {lines.map((line) => (
          <tr key={line.id}>
            <td class="number">{line.lineNo}</td>
            <td>{line.locationCode}</td>
            <td>
              <a href={`/app/products/${line.productId}`}>{line.sku}</a>
            </td>
            <td>{line.lotNumber ?? "—"}</td>
            <td>
              <a href={`/app/orders/${line.orderId}`}>
                {orders.data?.get(line.orderId)?.number ?? line.orderId.slice(-6)}
              </a>
            </td>
            <td class="number">{formatInteger(line.quantity)}</td>
            <td class="number">{formatInteger(line.pickedQuantity)}</td>
            <td class="number">{formatInteger(line.shortQuantity)}</td>
            <td>
              <span class={`badge status-${line.status}`}>{statusLabel(line.status)}</span>
            </td>
          </tr>
        ))}
      </Table>
    </>
  );
}
