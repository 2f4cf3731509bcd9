import { useState } from "preact/hooks";
import { useRoute } from "preact-iso";
import { api, type Schemas, unwrap } from "../api/client";
import { ErrorMessage } from "../ui/error-message";
import { useSubmit } from "../ui/form";
import { formatDateTime, formatInteger, statusLabel } from "../ui/format";
import { Loaded } from "../ui/loaded";
import { codeOf, locationChoices, useLocations, useWarehouses } from "../ui/lookups";
import { ConfirmButton } from "../ui/modal";
import { useOrdersById } from "../ui/orders-lookup";
import { useProductsById } from "../ui/products-lookup";
import {
  ReceiptDialog,
  type ReceiptDraft,
  ReceiptLot,
  ReceiptQuantity,
  useReceiptDraft,
} from "../ui/receipt-draft";
import { choicesOf, SelectField } from "../ui/select-field";
import { Table } from "../ui/table";
import { useDocumentTitle } from "../ui/title";
import { useLoad } from "../ui/use-load";

type Return = Schemas["Return"];
type Disposition = Schemas["ReturnDisposition"];
type StatusChange = Schemas["UpdateReturnStatusRequest"]["status"];
const DISPOSITIONS: Disposition[] = ["restock", "quarantine", "scrap"];

/** The changes each status allows by hand (`received` comes only from a receipt that completes every line). */
const CHANGES: Partial<Record<Return["status"], { status: StatusChange; label: string }[]>> = {
  requested: [
    { status: "authorized", label: "Authorize" },
    { status: "rejected", label: "Reject" },
    { status: "cancelled", label: "Cancel return" },
  ],
  authorized: [
    { status: "cancelled", label: "Cancel return" },
    { status: "closed", label: "Close" },
  ],
  received: [{ status: "closed", label: "Close" }],
};

/** One return: its lines and receipts, its next status, and Receive while it is authorized. */
export function ReturnPage() {
  const { params } = useRoute();
  const id = params.id ?? "";
  const loaded = useLoad(() => unwrap(api.GET("/api/v1/returns/{id}", { params: { path: { id } } })), [id]);
  const orders = useOrdersById(loaded.data ? [loaded.data.orderId] : []);
  const products = useProductsById(loaded.data?.lines.map((l) => l.productId) ?? []);
  const locations = useLocations();
  const sku = (productId: string) => products.data?.get(productId)?.sku ?? productId.slice(0, 8);
  const [receiving, setReceiving] = useState(false);
  const title = loaded.data ? `Return ${loaded.data.number}` : "Return";
  useDocumentTitle(title);
  return (
    <>
      <p>
        <a href="/app/returns">← Returns</a>
      </p>
      <h1 tabIndex={-1}>{title}</h1>
      <Loaded load={loaded}>
        {(r) => (
          <>
            <dl class="details">
              <dt>Status</dt>
              <dd>
                <span class={`badge status-${r.status}`}>{statusLabel(r.status)}</span>
              </dd>
              <dt>Order</dt>
              <dd>
                <a href={`/app/orders/${r.orderId}`}>
                  {orders.data?.get(r.orderId)?.number ?? r.orderId.slice(0, 8)}
                </a>
              </dd>
              <dt>Created</dt>
              <dd>{formatDateTime(r.createdAt)}</dd>
              {r.notes && (
                <>
                  <dt>Notes</dt>
                  <dd>{r.notes}</dd>
                </>
              )}
            </dl>
            <ReturnActions r={r} onChanged={loaded.reload} onReceive={() => setReceiving(true)} />
            <section aria-labelledby="return-lines-heading">
              <h2 id="return-lines-heading">Lines</h2>
              <Table
                label="Return lines"
                columns={[
                  "#",
                  "Product",
                  { label: "Units", number: true },
                  { label: "Received", number: true },
                  "Reason",
                ]}
              >
                {r.lines.map((line) => (
                  <tr key={line.id}>
                    <td>{line.lineNo}</td>
                    <td>{sku(line.productId)}</td>
                    <td class="number">{formatInteger(line.quantity)}</td>
                    <td class="number">{formatInteger(line.receivedQuantity)}</td>
                    <td>{line.reason}</td>
                  </tr>
                ))}
              </Table>
            </section>
            <section aria-labelledby="receipts-heading">
              <h2 id="receipts-heading">Receipts</h2>
              {r.receipts.length === 0 ? (
                <p>Nothing received yet.</p>
              ) : (
                <Table
                  label="Receipts"
                  columns={[
                    "Received",
                    "Product",
                    { label: "Units", number: true },
                    "Disposition",
                    "Location",
                    "Lot",
                  ]}
                >
                  {r.receipts.flatMap((receipt) =>
                    receipt.lines.map((line, index) => (
                      <tr key={`${receipt.id}:${index}`}>
                        <td>{formatDateTime(receipt.createdAt)}</td>
                        <td>{sku(line.productId)}</td>
                        <td class="number">{formatInteger(line.quantity)}</td>
                        <td>{line.disposition}</td>
                        <td>{codeOf(locations.data, line.locationId)}</td>
                        <td>{line.lotNumber ?? "—"}</td>
                      </tr>
                    )),
                  )}
                </Table>
              )}
            </section>
            {receiving && (
              <ReceiveReturnDialog
                r={r}
                sku={sku}
                onClose={() => setReceiving(false)}
                onDone={loaded.reload}
              />
            )}
          </>
        )}
      </Loaded>
    </>
  );
}

function ReturnActions({
  r,
  onChanged,
  onReceive,
}: {
  r: Return;
  onChanged: () => void;
  onReceive: () => void;
}) {
  const change = useSubmit(async (status: StatusChange) => {
    await unwrap(
      api.PATCH("/api/v1/returns/{id}/status", { params: { path: { id: r.id } }, body: { status } }),
    );
    onChanged();
  });
  const received = r.lines.some((l) => l.receivedQuantity > 0);
  // An authorized return is cancelled while nothing came back, closed once something did (the API's rule).
  const changes = (CHANGES[r.status] ?? []).filter(
    (c) => r.status !== "authorized" || (c.status === "closed" ? received : !received),
  );
  if (changes.length === 0 && r.status !== "authorized") return null;
  return (
    <section aria-labelledby="return-next-heading">
      <h2 id="return-next-heading">Next steps</h2>
      <div class="toolbar">
        {r.status === "authorized" && (
          <button type="button" class="button button-primary" onClick={onReceive}>
            Receive
          </button>
        )}
        {changes.map((c) =>
          c.status === "authorized" ? (
            <button
              key={c.status}
              type="button"
              class="button"
              disabled={change.busy}
              onClick={() => void change.run(c.status)}
            >
              {c.label}
            </button>
          ) : (
            <ConfirmButton
              key={c.status}
              label={c.label}
              title={`${c.label} ${r.number}?`}
              danger={c.status !== "closed"}
              disabled={change.busy}
              onConfirm={() => change.run(c.status)}
            >
              <p>
                {c.status === "closed"
                  ? "Nothing more can be received on it."
                  : "Nothing can be received on it, and the customer's units cannot come back on this return."}{" "}
                This cannot be undone.
              </p>
            </ConfirmButton>
          ),
        )}
      </div>
      <ErrorMessage error={change.error} />
    </section>
  );
}

interface Receipt extends ReceiptDraft {
  disposition: Disposition;
}

/**
 * Receives what is still expected on each line, with what becomes of it: restock (a sellable location), quarantine
 * (a non-sellable one) or scrap (written off, at a location or the packing location of the shipping warehouse).
 */
function ReceiveReturnDialog({
  r,
  sku,
  onClose,
  onDone,
}: {
  r: Return;
  sku: (productId: string) => string;
  onClose: () => void;
  onDone: () => void;
}) {
  const locations = useLocations();
  const warehouses = useWarehouses();
  const products = useProductsById(r.lines.map((l) => l.productId));
  const open = r.lines.filter((l) => l.receivedQuantity < l.quantity);
  const draft = useReceiptDraft({
    open,
    start: (l): Receipt => ({
      quantity: String(l.quantity - l.receivedQuantity),
      disposition: "restock",
      locationId: "",
      lotNumber: "",
    }),
    toLine: (line, receipt, typed) => ({
      returnLineId: line.id,
      disposition: receipt.disposition,
      // No location: scrap at the packing location of the shipping warehouse (the API's default).
      ...(receipt.locationId && { locationId: receipt.locationId }),
      ...typed,
    }),
    send: (lines) =>
      unwrap(
        api.POST("/api/v1/returns/{id}/receipts", {
          params: { path: { id: r.id } },
          body: { lines: lines as Schemas["ReturnReceiptRequest"]["lines"] },
        }),
      ),
    onDone,
    onClose,
  });
  const { set } = draft;
  return (
    <ReceiptDialog
      title={`Receive ${r.number}`}
      submitLabel="Receive return"
      open={open}
      draft={draft}
      legend={(line) => (
        <>
          Line {line.lineNo}: {sku(line.productId)}, {formatInteger(line.quantity - line.receivedQuantity)}{" "}
          expected
        </>
      )}
      fields={(line, receipt) => {
        const lotted = products.data?.get(line.productId)?.tracking === "lot";
        // Restock goes to a sellable location, quarantine to a non-sellable one; scrap may name either, or none.
        const fitting = locations.data?.filter(
          (l) => receipt.disposition === "scrap" || l.sellable === (receipt.disposition === "restock"),
        );
        return (
          <>
            <div class="field-row">
              <ReceiptQuantity value={receipt.quantity} onInput={(quantity) => set(line, { quantity })} />
              <SelectField
                label="Disposition"
                choices={choicesOf(DISPOSITIONS)}
                value={receipt.disposition}
                onChange={(disposition) =>
                  set(line, { disposition: disposition as Disposition, locationId: "" })
                }
              />
              <SelectField
                label="Location"
                required={receipt.disposition !== "scrap" && Number(receipt.quantity) > 0}
                empty={receipt.disposition === "scrap" ? "Packing location" : "Choose…"}
                choices={locationChoices(fitting, warehouses.data)}
                value={receipt.locationId}
                onChange={(locationId) => set(line, { locationId })}
              />
            </div>
            {lotted && (
              <ReceiptLot
                value={receipt.lotNumber}
                required={Number(receipt.quantity) > 0}
                onInput={(lotNumber) => set(line, { lotNumber })}
              />
            )}
          </>
        );
      }}
    />
  );
}
