import { useState } from "preact/hooks";
import { useRoute } from "preact-iso";
import { api, type Schemas, unwrap } from "../api/client";
import type { QueuedWrite, SavedWork } from "../offline/db";
import { FloorStatus, RefusedWrites, SavedOnDevice } from "../offline/floor-status";
import { enqueue, useWrites } from "../offline/queue";
import { useWork } from "../offline/work";
import { resolverOf } from "../scan/known";
import { useScanPipeline } from "../scan/pipeline";
import { amountBody, amountOf, unitOf } from "../scan/quantity";
import { calendarDate, type Scan } from "../scan/read-scan";
import { FloorChoices, useStatusPages } from "../ui/floor-choices";
import { formatInteger, statusLabel } from "../ui/format";
import { Loaded } from "../ui/loaded";
import { locationsOf } from "../ui/lookups";
import { type Product, productsOf } from "../ui/products-lookup";
import { focusScanField, ScanField } from "../ui/scan-field";
import { useDocumentTitle } from "../ui/title";

type Order = Schemas["Order"];
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
      <SavedOnDevice kind="receive" />
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

/** A purchase order with what its screen needs without the network: its products, its warehouse's locations. */
interface ReceiveWork {
  order: Order;
  products: Product[];
  locations: { id: string; code: string; warehouseId: string }[];
}

async function loadReceiveWork(id: string): Promise<ReceiveWork> {
  const order = await unwrap(api.GET("/api/v1/orders/{id}", { params: { path: { id } } }));
  const [products, locations] = await Promise.all([
    productsOf(order.lines.map((l) => l.productId)),
    locationsOf(order.warehouseId ?? ""),
  ]);
  return {
    order,
    products,
    locations: locations.map((l) => ({ id: l.id, code: l.code, warehouseId: l.warehouseId })),
  };
}

function ReceiveScans({ id }: { id: string }) {
  const work = useWork<ReceiveWork, Record<string, never>>(
    `receive:${id}`,
    (data) => data.order.number,
    () => loadReceiveWork(id),
    {},
  );
  const number = work.data?.data.order.number ?? "";
  useDocumentTitle(`Receive · ${number || "purchase order"}`);
  return (
    <>
      <p>
        <a href="/app/receive">← Receive</a>
      </p>
      <h1 tabIndex={-1}>Receive {number}</h1>
      <Loaded load={work}>{(saved) => <Receiver work={saved} offline={work.offline} />}</Loaded>
    </>
  );
}

/** Whether a lot number names a lot of the product already (it keeps its expiry); offline, it is taken as new. */
async function lotExists(productId: string, number: string): Promise<boolean> {
  try {
    const lots = await unwrap(
      api.GET("/api/v1/lots", { params: { query: { productId, number, pageSize: 1 } } }),
    );
    return lots.items.length > 0;
  } catch {
    return false;
  }
}

/** The order as the server last answered, with the receipts still waiting on the device done. */
function withWaiting(order: Order, waiting: QueuedWrite[]): Order {
  const lines = order.lines.map((line) => ({
    ...line,
    receivedQuantity:
      (line.receivedQuantity ?? 0) +
      waiting.filter((w) => w.effect?.lineId === line.id).reduce((n, w) => n + (w.effect?.units ?? 0), 0),
  }));
  return { ...order, lines };
}

/** What has been scanned for the receipt under way. */
interface Receipt {
  line?: OrderLine;
  location?: { id: string; code: string };
  lotNumber?: string;
  /** A new lot's expiry (YYYY-MM-DD), null when it has none or the lot exists already (it keeps its own). */
  expiresAt?: string | null;
}

type Step = "product" | "location" | "lot" | "expiry" | "serial" | "quantity";
const PROMPTS: Record<Exclude<Step, "serial">, string> = {
  product: "Scan product",
  location: "Scan location",
  lot: "Lot number",
  expiry: "Expires on (YYYY-MM-DD)",
  quantity: "Quantity",
};

const openOf = (line: OrderLine) => line.quantity - (line.receivedQuantity ?? 0);

/**
 * A purchase order received scan by scan: the product (barcode, SKU, a case's barcode or a GS1 code, which may
 * carry the lot and expiry too), the location it goes to (in the order's warehouse), the lot number for a
 * lot-tracked product and the expiry of a lot that is new, then the quantity (a number, or scans of the product
 * or its case), or one serial number per unit of a serial-tracked product. Each receipt sends
 * `POST /orders/{id}/receive` for that line. A lot number may be new (the receipt creates it), so it is taken
 * as typed; an existing lot keeps the expiry it has, so none is asked.
 */
function Receiver({
  work,
  offline,
}: {
  work: SavedWork<ReceiveWork, Record<string, never>>;
  offline: boolean;
}) {
  const { data, subject } = work;
  const products = new Map(data.products.map((p) => [p.id, p]));
  const writes = useWrites(subject);
  const order = withWaiting(data.order, writes.waiting);
  const resolve = resolverOf({ products: data.products, locations: data.locations, lots: [] });
  const [receipt, setReceipt] = useState<Receipt>({});
  const open = order.lines.filter((l) => openOf(l) > 0);
  const skuOf = (line: OrderLine) => products.get(line.productId)?.sku ?? line.productId.slice(-6);
  // The line as it stands now (the receipts still waiting included).
  const receiptLine = receipt.line && order.lines.find((l) => l.id === receipt.line?.id);
  const product = receipt.line && products.get(receipt.line.productId);
  const lotted = product?.tracking === "lot";
  const step: Step = !receipt.line
    ? "product"
    : !receipt.location
      ? "location"
      : lotted && !receipt.lotNumber
        ? "lot"
        : lotted && receipt.expiresAt === undefined
          ? "expiry"
          : product?.tracking === "serial"
            ? "serial"
            : "quantity";

  /**
   * A receipt of one line stored on the device, to be sent when the server can be reached. More than the line
   * still expects is refused here, as the API would.
   */
  const receive = async (
    line: OrderLine,
    location: { id: string; code: string },
    amount: object,
    units: number,
    what: string,
  ) => {
    if (units > openOf(line))
      throw new Error(
        `Receiving more than was ordered: ${openOf(line)} ${skuOf(line)} still expected, scanned ${units}`,
      );
    const body = {
      lineId: line.id,
      locationId: location.id,
      ...amount,
      ...(receipt.lotNumber && { lotNumber: receipt.lotNumber }),
      ...(receipt.expiresAt && { expiresAt: receipt.expiresAt }),
    };
    await enqueue({
      kind: "receive",
      subject,
      id: order.id,
      body: { lines: [body] },
      effect: { lineId: line.id, units },
      label: `Receive ${what} into ${location.code}${receipt.lotNumber ? `, lot ${receipt.lotNumber}` : ""} (${order.number})`,
      undo: `${what} ${units === 1 ? "is" : "are"} not booked: keep ${units === 1 ? "it" : "them"} aside and receive again, or ask the office.`,
    });
  };

  const pipeline = useScanPipeline(async (scan: Scan) => {
    if (step === "product") {
      const matches = await resolve(scan.code);
      const line = open.find((l) => unitOf(matches, l.productId));
      if (!line)
        throw new Error(
          `Not on ${order.number}: scanned ${scan.raw}; still open: ${open.map(skuOf).join(", ") || "nothing"}`,
        );
      const lot = scan.gs1?.lot;
      const tracked = products.get(line.productId)?.tracking;
      if (lot && tracked !== "lot") throw new Error(`${skuOf(line)} has no lots: scanned lot ${lot}`);
      setReceipt({
        line,
        ...(lot && { lotNumber: lot }),
        ...(lot && {
          expiresAt: scan.gs1?.expiry ?? ((await lotExists(line.productId, lot)) ? null : undefined),
        }),
      });
      return;
    }
    if (!receipt.line || !product) return;
    if (step === "location") {
      const location = (await resolve(scan.code)).find(
        (m) => m.type === "location" && (!order.warehouseId || m.location.warehouseId === order.warehouseId),
      );
      if (location?.type !== "location")
        throw new Error(`Wrong location: scanned ${scan.raw}, not a location of this order's warehouse`);
      setReceipt({ ...receipt, location: location.location });
      return;
    }
    if (step === "lot") {
      const lotNumber = scan.gs1?.lot ?? scan.raw;
      const expiry = scan.gs1?.expiry;
      const known = expiry === undefined && (await lotExists(product.id, lotNumber));
      setReceipt({ ...receipt, lotNumber, ...((expiry || known) && { expiresAt: expiry ?? null }) });
      return;
    }
    if (step === "expiry") {
      const typed = scan.gs1?.expiry ?? scan.raw;
      if (typed !== "" && !calendarDate(typed))
        throw new Error(`Expiry must be a date as YYYY-MM-DD (or nothing for none); ${typed} is none`);
      setReceipt({ ...receipt, expiresAt: typed || null });
      return;
    }
    const { location } = receipt;
    const line = receiptLine;
    if (!location || !line) return;
    if (step === "serial") {
      const serial = scan.gs1?.serial ?? scan.raw;
      if (serial === product.sku || serial === product.barcode)
        throw new Error(`That is ${product.sku} itself: scan the serial number on the unit`);
      const taken = writes.waiting.some((w) =>
        (w.body as { lines: { serialNumbers?: string[] }[] }).lines.some((l) =>
          l.serialNumbers?.includes(serial),
        ),
      );
      if (taken) throw new Error(`Serial number ${serial} is received already`);
      await receive(
        line,
        location,
        { quantity: 1, serialNumbers: [serial] },
        1,
        `${product.sku} serial ${serial}`,
      );
      if (openOf(line) <= 1) setReceipt({});
      return `Received ${product.sku} serial ${serial} into ${location.code}`;
    }
    const amount = await amountOf(scan, product, openOf(line), resolve);
    await receive(
      line,
      location,
      amountBody(amount),
      amount.units,
      `${formatInteger(amount.units)} ${product.sku}`,
    );
    setReceipt({});
    return `Received ${formatInteger(amount.units)} ${product.sku} into ${location.code}`;
  });
  const received = receiptLine ? receiptLine.quantity - openOf(receiptLine) : 0;
  return (
    <>
      <FloorStatus offline={offline} waiting={writes.waiting.length} />
      <RefusedWrites refused={writes.refused} />
      <p>
        <span class={`badge status-${order.status}`}>{statusLabel(order.status)}</span>
      </p>
      {open.length === 0 ? (
        <div class="alert alert-info" role="status">
          <p>{pipeline.notice}</p>
          <p>{order.number} is received in full.</p>
          <p>
            <a href="/app/receive">Receive another order</a> ·{" "}
            <a href={`/app/orders/${order.id}`}>See the order</a>
          </p>
        </div>
      ) : (
        <>
          <section class="pick-line" aria-label="Receipt under way">
            {receiptLine && product ? (
              <>
                <p class="pick-product">{product.sku}</p>
                <p class="pick-name">{product.name}</p>
                <p>{formatInteger(openOf(receiptLine))} still expected</p>
              </>
            ) : (
              <p>Scan a product of the order.</p>
            )}
            <ul class="pick-checks">
              <li>{receipt.location ? `✓ Location ${receipt.location.code}` : "Location not scanned yet"}</li>
              {lotted && <li>{receipt.lotNumber ? `✓ Lot ${receipt.lotNumber}` : "Lot not given yet"}</li>}
              {lotted && receipt.expiresAt !== undefined && (
                <li>{receipt.expiresAt ? `✓ Expires ${receipt.expiresAt}` : "✓ No new expiry"}</li>
              )}
            </ul>
          </section>
          <ScanField
            label={
              step === "serial" ? `Serial number ${received + 1} of ${receipt.line?.quantity}` : PROMPTS[step]
            }
            numeric={step === "quantity"}
            prefill={step === "quantity" && receipt.line ? String(openOf(receipt.line)) : ""}
            next={order.updatedAt}
            pipeline={pipeline}
            allowEmpty={step === "expiry"}
            submitLabel={step === "quantity" ? "Receive" : "Enter"}
          />
          <div class="toolbar">
            <button
              type="button"
              class="button"
              onClick={() => {
                setReceipt({});
                pipeline.clear();
                focusScanField();
              }}
            >
              Start again
            </button>
          </div>
          <h2>Still expected</h2>
          <ul class="receive-open">
            {open.map((line) => (
              <li key={line.id}>
                {skuOf(line)} {products.get(line.productId)?.name ?? ""}: {formatInteger(openOf(line))} of{" "}
                {formatInteger(line.quantity)}
              </li>
            ))}
          </ul>
        </>
      )}
    </>
  );
}
