import { useState } from "preact/hooks";
import { useRoute } from "preact-iso";
import { api, type Schemas, unwrap } from "../api/client";
import { ErrorMessage } from "../ui/error-message";
import { FloorChoices, useStatusPages } from "../ui/floor-choices";
import { useSubmit } from "../ui/form";
import { formatInteger, statusLabel } from "../ui/format";
import { Loaded } from "../ui/loaded";
import { resolveCode, ScanField } from "../ui/scan-field";
import { useDocumentTitle } from "../ui/title";
import { useLoad } from "../ui/use-load";

type Order = Schemas["Order"];
type Product = Schemas["Product"];
type OrderLine = Order["lines"][number];

/** The floor's Receive screen: without an order, the purchase orders awaiting stock; with one, its scans. */
export function Receive() {
  const { params } = useRoute();
  return params.id ? <ReceiveScans id={params.id} /> : <ReceiveChooser />;
}

const AWAITING = ["partially_received", "ordered"] as const;

function ReceiveChooser() {
  useDocumentTitle("Receive");
  const orders = useStatusPages(AWAITING, (status) =>
    unwrap(api.GET("/api/v1/orders", { params: { query: { type: "purchase", status, pageSize: 100 } } })),
  );
  return (
    <>
      <h1 tabIndex={-1}>Receive</h1>
      <FloorChoices
        load={orders}
        empty="No purchase order is waiting for stock."
        choice={(o) => ({
          id: o.id,
          href: `/app/receive/${o.id}`,
          title: o.number,
          detail: `${o.supplier ?? "No supplier"} · ${statusLabel(o.status)} · ${formatInteger(o.totals.quantity)} units ordered`,
        })}
      />
    </>
  );
}

function ReceiveScans({ id }: { id: string }) {
  const loaded = useLoad(async () => {
    const order = await unwrap(api.GET("/api/v1/orders/{id}", { params: { path: { id } } }));
    const ids = [...new Set(order.lines.map((l) => l.productId))];
    const products = await Promise.all(
      ids.map((productId) =>
        unwrap(api.GET("/api/v1/products/{id}", { params: { path: { id: productId } } })),
      ),
    );
    return { order, products: new Map(products.map((p) => [p.id, p])) };
  }, [id]);
  useDocumentTitle(`Receive · ${loaded.data?.order.number ?? "purchase order"}`);
  return (
    <>
      <p>
        <a href="/app/receive">← Receive</a>
      </p>
      <h1 tabIndex={-1}>Receive {loaded.data?.order.number ?? ""}</h1>
      <Loaded load={loaded}>{(data) => <Receiver initial={data.order} products={data.products} />}</Loaded>
    </>
  );
}

/** What has been scanned for the receipt under way. */
interface Receipt {
  line?: OrderLine;
  location?: { id: string; code: string };
  lotNumber?: string;
  expiresAt?: string;
}

type Step = "product" | "location" | "lot" | "expiry" | "quantity";
const PROMPTS: Record<Step, string> = {
  product: "Scan product",
  location: "Scan location",
  lot: "Lot number",
  expiry: "Expires on (YYYY-MM-DD)",
  quantity: "Quantity",
};

const openOf = (line: OrderLine) => line.quantity - (line.receivedQuantity ?? 0);

/**
 * A purchase order received scan by scan: the product (barcode or SKU, one of the order's open lines), the
 * location it goes to (in the order's warehouse), the lot number and expiry for a lot-tracked product, then the
 * quantity, which sends `POST /orders/{id}/receive` for that line. Product and location scans resolve through
 * `GET /barcodes/{code}` and are checked at once; a lot number may be new (the receipt creates the lot), so it is
 * taken as typed.
 */
function Receiver({ initial, products }: { initial: Order; products: Map<string, Product> }) {
  const [order, setOrder] = useState(initial);
  const [receipt, setReceipt] = useState<Receipt>({});
  const [received, setReceived] = useState("");
  const open = order.lines.filter((l) => openOf(l) > 0);
  const skuOf = (line: OrderLine) => products.get(line.productId)?.sku ?? line.productId.slice(-6);
  const lotted = receipt.line && products.get(receipt.line.productId)?.tracking === "lot";
  const step: Step = !receipt.line
    ? "product"
    : !receipt.location
      ? "location"
      : lotted && !receipt.lotNumber
        ? "lot"
        : lotted && !receipt.expiresAt
          ? "expiry"
          : "quantity";
  const scan = useSubmit(async (code: string) => {
    setReceived("");
    if (step === "product") {
      const matches = await resolveCode(code);
      const line = open.find((l) =>
        matches.some((m) => m.type === "product" && m.product.id === l.productId),
      );
      if (!line)
        throw new Error(
          `Not on ${order.number}: scanned ${code}; still open: ${open.map(skuOf).join(", ") || "nothing"}`,
        );
      setReceipt({ line });
    } else if (step === "location") {
      const location = (await resolveCode(code)).find(
        (m) => m.type === "location" && (!order.warehouseId || m.location.warehouseId === order.warehouseId),
      );
      if (location?.type !== "location")
        throw new Error(`Wrong location: scanned ${code}, not a location of this order's warehouse`);
      setReceipt({ ...receipt, location: location.location });
    } else if (step === "lot") {
      setReceipt({ ...receipt, lotNumber: code });
    } else if (step === "expiry") {
      if (!/^\d{4}-\d{2}-\d{2}$/.test(code)) throw new Error("Expiry must be a date as YYYY-MM-DD");
      setReceipt({ ...receipt, expiresAt: code });
    } else if (receipt.line && receipt.location) {
      if (!/^[1-9]\d*$/.test(code)) throw new Error("Quantity must be a whole number of at least 1");
      const line = {
        lineId: receipt.line.id,
        quantity: Number(code),
        locationId: receipt.location.id,
        ...(receipt.lotNumber && { lotNumber: receipt.lotNumber }),
        ...(receipt.expiresAt && { expiresAt: receipt.expiresAt }),
      };
      setOrder(
        await unwrap(
          api.POST("/api/v1/orders/{id}/receive", {
            params: { path: { id: order.id } },
            body: { lines: [line] },
          }),
        ),
      );
      setReceived(`Received ${code} ${skuOf(receipt.line)} into ${receipt.location.code}`);
      setReceipt({});
    }
  });
  return (
    <>
      <p>
        <span class={`badge status-${order.status}`}>{statusLabel(order.status)}</span>
      </p>
      {received && (
        <div class="alert alert-info" role="status">
          <p>{received}</p>
        </div>
      )}
      {open.length === 0 ? (
        <div class="alert alert-info" role="status">
          <p>{order.number} is received in full.</p>
          <p>
            <a href="/app/receive">Receive another order</a> ·{" "}
            <a href={`/app/orders/${order.id}`}>See the order</a>
          </p>
        </div>
      ) : (
        <>
          <section class="pick-line" aria-label="Receipt under way">
            {receipt.line ? (
              <>
                <p class="pick-product">{skuOf(receipt.line)}</p>
                <p>{formatInteger(openOf(receipt.line))} still expected</p>
              </>
            ) : (
              <p>Scan a product of the order.</p>
            )}
            <ul class="pick-checks">
              <li>{receipt.location ? `✓ Location ${receipt.location.code}` : "Location not scanned yet"}</li>
              {lotted && <li>{receipt.lotNumber ? `✓ Lot ${receipt.lotNumber}` : "Lot not given yet"}</li>}
            </ul>
          </section>
          <ScanField
            label={PROMPTS[step]}
            numeric={step === "quantity"}
            prefill={step === "quantity" && receipt.line ? String(openOf(receipt.line)) : ""}
            next={order.updatedAt}
            busy={scan.busy}
            submitLabel={step === "quantity" ? "Receive" : "Enter"}
            onScan={(code) => void scan.run(code)}
          />
          <ErrorMessage error={scan.error} />
          <div class="toolbar">
            <button
              type="button"
              class="button"
              onClick={() => {
                setReceipt({});
                scan.setError(null);
              }}
            >
              Start again
            </button>
          </div>
          <h2>Still expected</h2>
          <ul class="receive-open">
            {open.map((line) => (
              <li key={line.id}>
                {skuOf(line)}: {formatInteger(openOf(line))} of {formatInteger(line.quantity)}
              </li>
            ))}
          </ul>
        </>
      )}
    </>
  );
}
