import { useState } from "preact/hooks";
import { useRoute } from "preact-iso";
import { api, type Schemas, unwrap } from "../api/client";
import { ErrorMessage } from "../ui/error-message";
import { useSubmit } from "../ui/form";
import { formatDateTime, formatInteger, statusLabel } from "../ui/format";
import { Loaded } from "../ui/loaded";
import { codeOf, locationChoices, useLocations, useWarehouses } from "../ui/lookups";
import { ConfirmButton } from "../ui/modal";
import { useMoney } from "../ui/money";
import { type Product, useProductsById } from "../ui/products-lookup";
import {
  ReceiptDialog,
  type ReceiptDraft,
  ReceiptLot,
  ReceiptQuantity,
  useReceiptDraft,
} from "../ui/receipt-draft";
import { SelectField } from "../ui/select-field";
import { SerialsField } from "../ui/serials-field";
import { useDocumentTitle } from "../ui/title";
import { type Load, useLoad } from "../ui/use-load";
import { Customer, OrderLines, ShipTo } from "./order-lines";
import { packable } from "./pack";
import { NewReturnDialog, returnable } from "./returns";
import { ShipmentsTable } from "./shipments";

type Order = Schemas["Order"];
type Status = Schemas["OrderStatus"];

/** One order: its lines (with lots), its status timeline, and the next steps the API allows from here. */
export function OrderPage() {
  const { params } = useRoute();
  const id = params.id ?? "";
  const order = useLoad(() => unwrap(api.GET("/api/v1/orders/{id}", { params: { path: { id } } })), [id]);
  // Read alongside the order, not once it has shown: a sales order's page shows them (a purchase order has none).
  const shipments = useLoad(
    () => unwrap(api.GET("/api/v1/orders/{id}/shipments", { params: { path: { id } } })),
    [id],
  );
  const warehouses = useWarehouses();
  const money = useMoney();
  const [receiving, setReceiving] = useState(false);
  const [returning, setReturning] = useState(false);
  const title = order.data ? `Order ${order.data.number}` : "Order";
  useDocumentTitle(title);
  // The order names its lines' products (GET /orders/{id}): no second read for their SKUs.
  const sku = (productId: string) =>
    [...(order.data?.lines ?? []), ...(order.data?.kitLines ?? [])].find((l) => l.productId === productId)
      ?.sku ?? productId.slice(0, 8);

  return (
    <>
      <p>
        <a href="/app/orders">← Orders</a>
      </p>
      <h1 tabIndex={-1}>{title}</h1>
      <Loaded load={order}>
        {(o) => (
          <>
            <dl class="details">
              <dt>Type</dt>
              <dd>{o.type}</dd>
              <dt>Status</dt>
              <dd>
                <span class={`badge status-${o.status}`}>{statusLabel(o.status)}</span>
              </dd>
              <dt>{o.type === "sales" ? "Customer" : "Supplier"}</dt>
              <dd>{o.type === "sales" ? <Customer order={o} /> : o.supplier}</dd>
              <dt>Warehouse</dt>
              <dd>{codeOf(warehouses.data, o.warehouseId)}</dd>
              {o.shippingAddress && (
                <>
                  <dt>Ship to</dt>
                  <dd>
                    <ShipTo address={o.shippingAddress} />
                  </dd>
                </>
              )}
              {o.trackingNumber && (
                <>
                  <dt>Tracking</dt>
                  <dd>{o.trackingNumber}</dd>
                </>
              )}
              {o.expectedAt && (
                <>
                  <dt>Expected</dt>
                  <dd>{formatDateTime(o.expectedAt)}</dd>
                </>
              )}
              <dt>Total</dt>
              <dd>
                {formatInteger(o.totals.quantity)} units, {money(o.totals.totalExact)}
              </dd>
              {o.notes && (
                <>
                  <dt>Notes</dt>
                  <dd class="notes">{o.notes}</dd>
                </>
              )}
            </dl>
            <NextSteps
              order={o}
              onChanged={order.reload}
              onReceive={() => setReceiving(true)}
              onReturn={() => setReturning(true)}
            />
            <section aria-labelledby="lines-heading">
              <h2 id="lines-heading">Lines</h2>
              <OrderLines order={o} />
            </section>
            {o.type === "sales" && (
              <OrderShipments shipments={shipments} warehouse={(id) => codeOf(warehouses.data, id)} />
            )}
            <section aria-labelledby="timeline-heading">
              <h2 id="timeline-heading">Status timeline</h2>
              <ol class="timeline">
                {o.statusHistory.map((change) => (
                  <li key={`${change.at}:${change.to}`}>
                    <strong>{statusLabel(change.to)}</strong>
                    {change.from && <span class="muted"> from {statusLabel(change.from)}</span>}
                    <span class="muted">
                      {" "}
                      · {formatDateTime(change.at)} · by {change.by.type.replace("_", " ")}
                    </span>
                  </li>
                ))}
              </ol>
            </section>
            {returning && <NewReturnDialog order={o} sku={sku} onClose={() => setReturning(false)} />}
            {receiving && (
              <ReceiveDialog order={o} sku={sku} onClose={() => setReceiving(false)} onDone={order.reload} />
            )}
          </>
        )}
      </Loaded>
    </>
  );
}

/** A sales order's shipments, oldest first (`GET /orders/{id}/shipments`). */
function OrderShipments({
  shipments,
  warehouse,
}: {
  shipments: Load<Schemas["Shipment"][]>;
  warehouse: (id: string | null) => string;
}) {
  return (
    <section aria-labelledby="shipments-heading">
      <h2 id="shipments-heading">Shipments</h2>
      <Loaded load={shipments}>
        {(list) =>
          list.length === 0 ? (
            <p>Nothing shipped yet.</p>
          ) : (
            <ShipmentsTable label="Shipments of this order" shipments={list} warehouse={warehouse} />
          )
        }
      </Loaded>
    </section>
  );
}

/** The statuses the API allows next (its allowedTransitions), and Receive for a purchase order awaiting stock. */
function NextSteps({
  order,
  onChanged,
  onReceive,
  onReturn,
}: {
  order: Order;
  onChanged: () => void;
  onReceive: () => void;
  onReturn: () => void;
}) {
  const [tracking, setTracking] = useState("");
  const change = useSubmit(async (status: Status) => {
    await unwrap(
      api.PATCH("/api/v1/orders/{id}/status", {
        params: { path: { id: order.id } },
        body: { status, ...(status === "shipped" && tracking.trim() && { trackingNumber: tracking.trim() }) },
      }),
    );
    onChanged();
  });
  const receivable =
    order.type === "purchase" && (order.status === "ordered" || order.status === "partially_received");
  const canPack = packable(order);
  const canReturn = returnable(order);
  if (order.allowedTransitions.length === 0 && !receivable && !canPack && !canReturn) return null;
  return (
    <section aria-labelledby="next-heading">
      <h2 id="next-heading">Next steps</h2>
      {order.allowedTransitions.includes("shipped") && (
        <label class="field">
          <span>Tracking number (for Shipped)</span>
          <input value={tracking} maxLength={100} onInput={(e) => setTracking(e.currentTarget.value)} />
        </label>
      )}
      <div class="toolbar">
        {canPack && (
          <a class="button button-primary" href={`/app/pack/${order.id}`}>
            Pack
          </a>
        )}
        {canReturn && (
          <button type="button" class="button" onClick={onReturn}>
            Create return
          </button>
        )}
        {receivable && (
          <button type="button" class="button button-primary" onClick={onReceive}>
            Receive
          </button>
        )}
        {order.allowedTransitions.map((status) =>
          status === "shipped" ? (
            <ConfirmButton
              key={status}
              label="Mark shipped"
              title={`Mark ${order.number} shipped?`}
              disabled={change.busy}
              onConfirm={() => change.run(status)}
            >
              <ShipWithoutShipment order={order} tracking={tracking.trim()} />
            </ConfirmButton>
          ) : status === "cancelled" ? (
            <ConfirmButton
              key={status}
              label="Cancel order"
              title={`Cancel ${order.number}?`}
              danger
              disabled={change.busy}
              onConfirm={() => change.run(status)}
            >
              <p>What it holds is released and it can never go on. This cannot be undone.</p>
            </ConfirmButton>
          ) : (
            <button
              key={status}
              type="button"
              class="button"
              disabled={change.busy}
              onClick={() => void change.run(status)}
            >
              Mark {statusLabel(status)}
            </button>
          ),
        )}
      </div>
      <ErrorMessage error={change.error} />
    </section>
  );
}

/** What Mark shipped does to the units no dispatched shipment carries: they leave stock with no package. */
function ShipWithoutShipment({ order, tracking }: { order: Order; tracking: string }) {
  const open = order.lines.reduce(
    (sum, l) => sum + l.quantity - (l.shippedQuantity ?? 0) - (l.backorderedQuantity ?? 0),
    0,
  );
  return (
    <>
      {open > 0 && (
        <p class="alert alert-warning">
          {open === 1 ? "1 unit is" : `${open} units are`} in no shipment: marked shipped, they leave stock
          with no package, no label and{" "}
          {tracking ? `only the tracking number ${tracking}` : "no tracking number"}. To ship them in
          packages, use Pack instead.
        </p>
      )}
      <p>This cannot be undone.</p>
    </>
  );
}

interface Receipt extends ReceiptDraft {
  expiresAt: string;
  /** A serial-tracked line's units (its quantity is their count). */
  serialNumbers: string[];
}

interface ReceiveProps {
  order: Order;
  sku: (productId: string) => string;
  onClose: () => void;
  onDone: () => void;
}

/**
 * Receives what is still open on each line into a location, with its lot and expiry where the product has lots
 * and its units' serial numbers where it has serials. The products are read first: a serial-tracked line starts
 * with no units (its units are the serials scanned).
 */
export function ReceiveDialog(props: ReceiveProps) {
  const products = useProductsById(props.order.lines.map((l) => l.productId));
  return <Loaded load={products}>{(found) => <ReceiveForm {...props} products={found} />}</Loaded>;
}

function ReceiveForm({
  order,
  sku,
  onClose,
  onDone,
  products,
}: ReceiveProps & { products: Map<string, Product> }) {
  const locations = useLocations(order.warehouseId ?? "");
  const warehouses = useWarehouses();
  const open = order.lines.filter((l) => (l.receivedQuantity ?? 0) < l.quantity);
  const draft = useReceiptDraft({
    open,
    start: (l): Receipt => ({
      quantity:
        products.get(l.productId)?.tracking === "serial"
          ? "0"
          : String(l.quantity - (l.receivedQuantity ?? 0)),
      locationId: "",
      lotNumber: "",
      expiresAt: "",
      serialNumbers: [],
    }),
    toLine: (line, receipt, typed) => ({
      lineId: line.id,
      locationId: receipt.locationId,
      ...typed,
      ...(receipt.expiresAt && { expiresAt: receipt.expiresAt }),
      ...(receipt.serialNumbers.length > 0 && { serialNumbers: receipt.serialNumbers }),
    }),
    send: (lines) =>
      unwrap(
        api.POST("/api/v1/orders/{id}/receive", { params: { path: { id: order.id } }, body: { lines } }),
      ),
    onDone,
    onClose,
  });
  const { set } = draft;
  return (
    <ReceiptDialog
      title={`Receive ${order.number}`}
      submitLabel="Receive stock"
      open={open}
      draft={draft}
      legend={(line) => (
        <>
          {sku(line.productId)}: {line.quantity - (line.receivedQuantity ?? 0)} open
        </>
      )}
      fields={(line, receipt) => {
        const product = products.get(line.productId);
        const lotted = product?.tracking === "lot";
        return (
          <>
            <div class="field-row">
              {product?.tracking === "serial" ? (
                <SerialsField
                  product={product}
                  serials={receipt.serialNumbers}
                  onChange={(serialNumbers) =>
                    set(line, { serialNumbers, quantity: String(serialNumbers.length) })
                  }
                />
              ) : (
                <ReceiptQuantity value={receipt.quantity} onInput={(quantity) => set(line, { quantity })} />
              )}
              <SelectField
                label="Into location"
                // A line receiving nothing this time needs no location (a partial receipt).
                required={Number(receipt.quantity) > 0}
                empty="Choose…"
                choices={locationChoices(locations.data, warehouses.data)}
                value={receipt.locationId}
                onChange={(locationId) => set(line, { locationId })}
              />
            </div>
            {lotted && (
              <div class="field-row">
                <ReceiptLot
                  value={receipt.lotNumber}
                  required={Number(receipt.quantity) > 0}
                  onInput={(lotNumber) => set(line, { lotNumber })}
                />
                <label class="field">
                  <span>Expires on</span>
                  <input
                    type="date"
                    value={receipt.expiresAt}
                    onInput={(e) => set(line, { expiresAt: e.currentTarget.value })}
                  />
                </label>
              </div>
            )}
          </>
        );
      }}
    />
  );
}
