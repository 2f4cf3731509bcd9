import { useState } from "preact/hooks";
import { useLocation } from "preact-iso";
import { api, type Schemas, unwrap } from "../api/client";
import { FilteredList, StatusFilter, useFilteredList } from "../ui/filtered-list";
import { useSubmit } from "../ui/form";
import { DialogActions } from "../ui/form-dialog";
import { formatDateTime, formatInteger, statusLabel } from "../ui/format";
import { Modal } from "../ui/modal";
import { useOrdersById } from "../ui/orders-lookup";
import { Table } from "../ui/table";
import { useDocumentTitle } from "../ui/title";

type Order = Schemas["Order"];
type ReturnStatus = Schemas["ReturnStatus"];
const STATUSES: ReturnStatus[] = ["requested", "authorized", "received", "closed", "rejected", "cancelled"];

/** Order statuses with dispatched units a customer may send back. */
const RETURNABLE = ["partially_shipped", "shipped", "delivered"];
export const returnable = (order: Order) =>
  order.type === "sales" &&
  RETURNABLE.includes(order.status) &&
  order.lines.some((l) => (l.shippedQuantity ?? 0) > 0);

/** Returns (RMAs) with a status filter; each is created from its order's page. */
export function Returns() {
  useDocumentTitle("Returns");
  const returns = useFilteredList(["status"] as const, (values, page) =>
    unwrap(
      api.GET("/api/v1/returns", {
        params: {
          query: { page, pageSize: 25, ...(values.status && { status: values.status as ReturnStatus }) },
        },
      }),
    ),
  );
  const orders = useOrdersById(returns.list.data?.items.map((r) => r.orderId) ?? []);
  return (
    <>
      <h1 tabIndex={-1}>Returns</h1>
      <p class="muted">A return is created from its order's page (Create return), once units have shipped.</p>
      <FilteredList
        noun="returns"
        data={returns}
        fields={<StatusFilter statuses={STATUSES} initial={returns.values.status} />}
      >
        {(list) => (
          <Table
            label="Returns"
            columns={[
              "Return",
              "Status",
              "Order",
              { label: "Units", number: true },
              { label: "Received", number: true },
              "Created",
            ]}
          >
            {list.items.map((r) => (
              <tr key={r.id}>
                <td>
                  <a href={`/app/returns/${r.id}`}>{r.number}</a>
                </td>
                <td>
                  <span class={`badge status-${r.status}`}>{statusLabel(r.status)}</span>
                </td>
                <td>
                  <a href={`/app/orders/${r.orderId}`}>
                    {orders.data?.get(r.orderId)?.number ?? r.orderId.slice(0, 8)}
                  </a>
                </td>
                <td class="number">{formatInteger(r.lines.reduce((n, l) => n + l.quantity, 0))}</td>
                <td class="number">{formatInteger(r.lines.reduce((n, l) => n + l.receivedQuantity, 0))}</td>
                <td>{formatDateTime(r.createdAt)}</td>
              </tr>
            ))}
          </Table>
        )}
      </FilteredList>
    </>
  );
}

interface Claim {
  quantity: string;
  reason: string;
}

/** A return of an order's shipped units: how many of each line come back, and why (`POST /returns`). */
export function NewReturnDialog({
  order,
  sku,
  onClose,
}: {
  order: Order;
  sku: (productId: string) => string;
  onClose: () => void;
}) {
  const { route } = useLocation();
  const shipped = order.lines.filter((l) => (l.shippedQuantity ?? 0) > 0);
  const [claims, setClaims] = useState<Record<string, Claim>>({});
  const [notes, setNotes] = useState("");
  const claimOf = (lineId: string): Claim => claims[lineId] ?? { quantity: "0", reason: "" };
  const set = (lineId: string, change: Partial<Claim>) =>
    setClaims({ ...claims, [lineId]: { ...claimOf(lineId), ...change } });
  const submit = useSubmit(async () => {
    const lines = shipped
      .map((l) => ({
        orderLineId: l.id,
        quantity: Number(claimOf(l.id).quantity),
        reason: claimOf(l.id).reason.trim(),
      }))
      .filter((l) => l.quantity > 0);
    const created = await unwrap(
      api.POST("/api/v1/returns", {
        body: { orderId: order.id, lines, ...(notes.trim() && { notes: notes.trim() }) },
      }),
    );
    route(`/app/returns/${created.id}`);
  });
  return (
    <Modal title={`Return from ${order.number}`} onClose={onClose}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void submit.run();
        }}
      >
        {shipped.map((line) => {
          const claim = claimOf(line.id);
          return (
            <fieldset key={line.id} class="field receipt">
              <legend>
                Line {line.lineNo}: {sku(line.productId)}, {formatInteger(line.shippedQuantity ?? 0)} shipped
              </legend>
              <div class="field-row">
                <label class="field narrow-field">
                  <span>Units back</span>
                  <input
                    type="number"
                    min={0}
                    max={line.shippedQuantity}
                    step={1}
                    inputMode="numeric"
                    value={claim.quantity}
                    onInput={(e) => set(line.id, { quantity: e.currentTarget.value })}
                  />
                </label>
                <label class="field">
                  <span>Reason</span>
                  <input
                    maxLength={64}
                    placeholder="damaged"
                    required={Number(claim.quantity) > 0}
                    value={claim.reason}
                    onInput={(e) => set(line.id, { reason: e.currentTarget.value })}
                  />
                </label>
              </div>
            </fieldset>
          );
        })}
        <label class="field">
          <span>Notes</span>
          <textarea maxLength={1000} value={notes} onInput={(e) => setNotes(e.currentTarget.value)} />
        </label>
        <DialogActions submit={submit} submitLabel="Create return" onClose={onClose} />
      </form>
    </Modal>
  );
}
