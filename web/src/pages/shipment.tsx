import { useState } from "preact/hooks";
import { useRoute } from "preact-iso";
import { api, type Schemas, unwrap } from "../api/client";
import { saveFile } from "../ui/download";
import { ErrorMessage } from "../ui/error-message";
import { fieldsOf, useSubmit } from "../ui/form";
import { formatDateTime, statusLabel } from "../ui/format";
import { Loaded } from "../ui/loaded";
import { codeOf, useWarehouses } from "../ui/lookups";
import { ConfirmButton, ConfirmDialog } from "../ui/modal";
import { useOrdersById } from "../ui/orders-lookup";
import { useProductsById } from "../ui/products-lookup";
import { Table } from "../ui/table";
import { useDocumentTitle } from "../ui/title";
import { useLoad } from "../ui/use-load";
import { formatWeight, shipmentName } from "./shipments";

type Shipment = Schemas["Shipment"];
type Package = Shipment["packages"][number];

const formatDimensions = (d: Schemas["Dimensions"]) =>
  d ? `${d.length} × ${d.width} × ${d.height} ${d.unit}` : "—";

/** One shipment: its packages and their contents, then labels, label downloads, dispatch or cancel. */
export function ShipmentPage() {
  const { params } = useRoute();
  const id = params.id ?? "";
  const loaded = useLoad(() => unwrap(api.GET("/api/v1/shipments/{id}", { params: { path: { id } } })), [id]);
  const orderId = loaded.data?.orderId ?? "";
  const orders = useOrdersById(orderId ? [orderId] : []);
  const warehouses = useWarehouses();
  const products = useProductsById(
    loaded.data?.packages.flatMap((p) => p.lines.map((l) => l.productId)) ?? [],
  );
  const sku = (productId: string) => products.data?.get(productId)?.sku ?? productId.slice(0, 8);
  const title = shipmentName(id);
  useDocumentTitle(title);
  return (
    <>
      <p>
        <a href="/app/shipments">← Shipments</a>
      </p>
      <h1 tabIndex={-1}>{title}</h1>
      <Loaded load={loaded}>
        {(shipment) => (
          <>
            <dl class="details">
              <dt>Status</dt>
              <dd>
                <span class={`badge status-${shipment.status}`}>{statusLabel(shipment.status)}</span>
              </dd>
              <dt>Order</dt>
              <dd>
                <a href={`/app/orders/${shipment.orderId}`}>
                  {orders.data?.get(shipment.orderId)?.number ?? shipment.orderId.slice(0, 8)}
                </a>
              </dd>
              <dt>Warehouse</dt>
              <dd>{codeOf(warehouses.data, shipment.warehouseId)}</dd>
              <dt>Carrier</dt>
              <dd>
                {shipment.carrier ?? "—"}
                {shipment.service && ` · ${shipment.service}`}
              </dd>
              <dt>Packed</dt>
              <dd>{formatDateTime(shipment.createdAt)}</dd>
              {shipment.dispatchedAt && (
                <>
                  <dt>Dispatched</dt>
                  <dd>{formatDateTime(shipment.dispatchedAt)}</dd>
                </>
              )}
              {shipment.cancelledAt && (
                <>
                  <dt>Cancelled</dt>
                  <dd>{formatDateTime(shipment.cancelledAt)}</dd>
                </>
              )}
            </dl>
            <section aria-labelledby="packages-heading">
              <h2 id="packages-heading">Packages</h2>
              <Table
                label="Packages"
                columns={["#", "SSCC", "Type", "Weight", "Dimensions", "Contents", "Tracking", "Label"]}
              >
                {shipment.packages.map((pkg) => (
                  <tr key={pkg.id}>
                    <td>{pkg.packageNo}</td>
                    <td>{pkg.sscc}</td>
                    <td>{pkg.packageType ?? "—"}</td>
                    <td>{formatWeight(pkg.weight)}</td>
                    <td>{formatDimensions(pkg.dimensions)}</td>
                    <td>
                      {pkg.lines
                        .map(
                          (l) =>
                            `${sku(l.productId)} × ${l.quantity}${l.lotNumber ? ` (lot ${l.lotNumber})` : ""}`,
                        )
                        .join("; ")}
                    </td>
                    <td>{pkg.trackingNumber ?? "—"}</td>
                    <td>{pkg.labelFormat ? <LabelDownload shipment={shipment} pkg={pkg} /> : "—"}</td>
                  </tr>
                ))}
              </Table>
            </section>
            <ShipmentActions shipment={shipment} onChanged={loaded.reload} />
          </>
        )}
      </Loaded>
    </>
  );
}

/** A package's label as the carrier made it (ZPL or PDF), saved under its SSCC. */
function LabelDownload({ shipment, pkg }: { shipment: Shipment; pkg: Package }) {
  const download = useSubmit(() =>
    saveFile(
      api.GET("/api/v1/shipments/{id}/packages/{packageId}/label", {
        params: { path: { id: shipment.id, packageId: pkg.id } },
        parseAs: "blob",
      }),
      `${pkg.sscc}.${pkg.labelFormat}`,
    ),
  );
  return (
    <>
      <button type="button" class="button" disabled={download.busy} onClick={() => void download.run()}>
        Download label {pkg.packageNo}
      </button>
      <ErrorMessage error={download.error} />
    </>
  );
}

/**
 * What a shipment not yet dispatched allows: labels (the manual carrier takes a tracking number per package;
 * labelling again replaces them), dispatch, and cancel (its units go back to the packing location, reserved).
 */
function ShipmentActions({ shipment, onChanged }: { shipment: Shipment; onChanged: () => void }) {
  const [cancelling, setCancelling] = useState(false);
  const path = { id: shipment.id };
  // The manual carrier (a shipment without one uses it) prints the tracking numbers it is given; another makes its own.
  const manual = !shipment.carrier || shipment.carrier === "manual";
  const label = useSubmit(async (fields: Record<string, string>) => {
    const trackingNumbers = shipment.packages.map((p) => ({
      packageId: p.id,
      trackingNumber: (fields[p.id] ?? "").trim(),
    }));
    const body = manual ? { trackingNumbers } : {};
    await unwrap(api.POST("/api/v1/shipments/{id}/label", { params: { path }, body }));
    onChanged();
  });
  const unlabelled = shipment.packages.filter((p) => !p.labelFormat && !p.trackingNumber);
  if (shipment.status !== "packed" && shipment.status !== "labelled") return null;
  return (
    <section aria-labelledby="labels-heading">
      <h2 id="labels-heading">Labels and dispatch</h2>
      <form onSubmit={(event) => void label.run(fieldsOf(event))}>
        <div class="field-row">
          {manual &&
            shipment.packages.map((p) => (
              <label key={p.id} class="field">
                <span>Tracking number, package {p.packageNo}</span>
                <input
                  name={p.id}
                  required
                  maxLength={100}
                  autocomplete="off"
                  defaultValue={p.trackingNumber ?? ""}
                />
              </label>
            ))}
        </div>
        <ErrorMessage error={label.error} />
        <div class="toolbar">
          <button type="submit" class="button button-primary" disabled={label.busy}>
            {shipment.status === "labelled" ? "Replace labels" : "Record labels"}
          </button>
          <ConfirmButton
            label="Dispatch"
            title={`Dispatch ${shipmentName(shipment.id)}?`}
            onConfirm={async () => {
              await unwrap(api.POST("/api/v1/shipments/{id}/dispatch", { params: { path } }));
              onChanged();
            }}
          >
            {unlabelled.length > 0 && (
              <p class="alert alert-warning">
                {unlabelled.length === shipment.packages.length
                  ? "No package has a label or a tracking number"
                  : `Package ${unlabelled.map((p) => p.packageNo).join(", ")} has no label and no tracking number`}
                : the carrier has nothing to scan and the customer nothing to follow.
              </p>
            )}
            <p>
              {shipment.packages.length === 1
                ? "Its package leaves"
                : `Its ${shipment.packages.length} packages leave`}{" "}
              the warehouse: their units are booked as shipped on the order. This cannot be undone.
            </p>
          </ConfirmButton>
          <button type="button" class="button button-danger" onClick={() => setCancelling(true)}>
            Cancel shipment
          </button>
        </div>
      </form>
      {cancelling && (
        <ConfirmDialog
          title="Cancel shipment"
          confirmLabel="Cancel shipment"
          onClose={() => setCancelling(false)}
          onConfirm={async () => {
            await unwrap(api.POST("/api/v1/shipments/{id}/cancel", { params: { path } }));
            onChanged();
          }}
        >
          <p>Its units go back to the packing location, still reserved for the order.</p>
        </ConfirmDialog>
      )}
    </section>
  );
}
