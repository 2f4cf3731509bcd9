import { useState } from "preact/hooks";
import { useRoute } from "preact-iso";
import { api, type Schemas, unwrap } from "../api/client";
import type { QueuedWrite, SavedWork, WriteKind } from "../offline/db";
import { FloorStatus, RefusedWrites, SavedOnDevice } from "../offline/floor-status";
import { changeDevice, enqueue, useWrites } from "../offline/queue";
import { useWork } from "../offline/work";
import { resolverOf, type ScanMatch } from "../scan/known";
import { useScanPipeline } from "../scan/pipeline";
import { amountBody, amountOf, unitOf } from "../scan/quantity";
import type { Scan } from "../scan/read-scan";
import { FloorChoices, useStatusPages } from "../ui/floor-choices";
import { fieldsOf, useSubmit } from "../ui/form";
import { DialogActions } from "../ui/form-dialog";
import { formatInteger, statusLabel } from "../ui/format";
import { Loaded } from "../ui/loaded";
import { codeOf, useWarehouses } from "../ui/lookups";
import { Modal } from "../ui/modal";
import { type Product, productsOf } from "../ui/products-lookup";
import { focusScanField, ScanField } from "../ui/scan-field";
import { useDocumentTitle } from "../ui/title";
import { pickListName } from "./pick-lists";

type PickList = Schemas["PickList"];
type Line = PickList["lines"][number];

/** The floor's Pick screen: without a pick list, the ones waiting to be picked; with one, its scans. */
export function Pick() {
  const { params } = useRoute();
  return params.id ? <PickScans id={params.id} /> : <PickChooser />;
}

/** The pick lists waiting on the floor (in progress first, then open), as large targets. */
function PickChooser() {
  useDocumentTitle("Pick");
  const warehouses = useWarehouses();
  const lists = useStatusPages(["in_progress", "open"] as const, (status) =>
    unwrap(api.GET("/api/v1/pick-lists", { params: { query: { status, pageSize: 100 } } })),
  );
  return (
    <>
      <h1 tabIndex={-1}>Pick</h1>
      <SavedOnDevice kind="pick" />
      <FloorChoices
        load={lists}
        empty="Nothing to pick: every pick list is done."
        choice={(p) => ({
          id: p.id,
          href: `/app/pick/${p.id}`,
          title: pickListName(p.id),
          detail: `${codeOf(warehouses.data, p.warehouseId)} · ${statusLabel(p.status)} · ${formatInteger(
            p.totals.pickedQuantity + p.totals.shortQuantity,
          )} of ${formatInteger(p.totals.quantity)} units done`,
        })}
      />
    </>
  );
}

/** A pick list with what its lines name: the products (name, tracking, packagings) and the orders' numbers. */
interface PickWork {
  pickList: PickList;
  products: Product[];
  orderNumbers: Record<string, string>;
}

/** What this device keeps of a pick list: the wave's totes by order, and the lines skipped (in the order skipped). */
interface PickDevice {
  totes: Record<string, string>;
  skipped: string[];
}

async function loadPickWork(id: string): Promise<PickWork> {
  const pickList = await unwrap(api.GET("/api/v1/pick-lists/{id}", { params: { path: { id } } }));
  const [products, orders] = await Promise.all([
    productsOf(pickList.lines.map((l) => l.productId)),
    Promise.all(
      pickList.orderIds.map((orderId) =>
        unwrap(api.GET("/api/v1/orders/{id}", { params: { path: { id: orderId } } })),
      ),
    ),
  ]);
  return { pickList, products, orderNumbers: Object.fromEntries(orders.map((o) => [o.id, o.number])) };
}

function PickScans({ id }: { id: string }) {
  useDocumentTitle(`Pick · ${pickListName(id)}`);
  const work = useWork<PickWork, PickDevice>(
    `pick:${id}`,
    () => pickListName(id),
    () => loadPickWork(id),
    {
      totes: {},
      skipped: [],
    },
  );
  return (
    <>
      <p>
        <a href="/app/pick">← Pick</a>
      </p>
      <h1 tabIndex={-1}>{pickListName(id)}</h1>
      <Loaded load={work}>{(saved) => <Scanner work={saved} offline={work.offline} />}</Loaded>
    </>
  );
}

/** What has been scanned for the line being picked; a new line starts from its location again. */
interface Scans {
  lineId: string;
  location?: string;
  product?: string;
  lotNumber?: string;
}

type Step = "location" | "product" | "lot" | "tote" | "serial" | "quantity";

const remainingOf = (line: Line) => line.quantity - line.pickedQuantity - line.shortQuantity;

/** The pick list as the server last answered, with the picks and shorts still waiting on the device done. */
function withWaiting(pickList: PickList, waiting: QueuedWrite[]): PickList {
  const lines = pickList.lines.map((line) => {
    const done = (kind: WriteKind) =>
      waiting
        .filter((w) => w.kind === kind && w.effect?.lineId === line.id)
        .reduce((n, w) => n + (w.effect?.units ?? 0), 0);
    const picked = line.pickedQuantity + done("pick");
    const short = line.shortQuantity + done("short");
    const status =
      line.status !== "open"
        ? line.status
        : picked + short < line.quantity
          ? "open"
          : short > 0
            ? "short"
            : "picked";
    return { ...line, pickedQuantity: picked, shortQuantity: short, status };
  });
  const complete = lines.every((l) => l.status !== "open");
  const status = pickList.status === "cancelled" ? "cancelled" : complete ? "completed" : pickList.status;
  return { ...pickList, lines, status } as PickList;
}

/**
 * The pick list line by line in walking order. One field (ScanField) takes the scans through the scan pipeline:
 * the location, the product, the lot when the line has one, the order's tote in a wave, then the quantity (or
 * one serial number per unit of a serial-tracked product, each its own pick). Each scan is checked against the
 * line at once, on the device for the codes the list involves; a pick is stored on the device (with its own
 * Idempotency-Key) before the screen takes it, and sent when the server can be reached (offline/queue.ts), which
 * checks it again: its refusal is listed under the line with what to do. A line can be skipped: it goes to the
 * end of the walk and comes back when the others are done.
 */
function Scanner({ work, offline }: { work: SavedWork<PickWork, PickDevice>; offline: boolean }) {
  const { data, device, subject } = work;
  const products = new Map(data.products.map((p) => [p.id, p]));
  const { totes, skipped } = device;
  const writes = useWrites(subject);
  const pickList = withWaiting(data.pickList, writes.waiting);
  const [scans, setScans] = useState<Scans>({ lineId: "" });
  const [shorting, setShorting] = useState(false);
  const resolve = resolverOf(
    {
      products: data.products,
      locations: pickList.lines.map((l) => ({
        id: l.locationId,
        code: l.locationCode,
        warehouseId: pickList.warehouseId,
      })),
      lots: pickList.lines.flatMap((l) =>
        l.lotNumber ? [{ number: l.lotNumber, productId: l.productId, expiresAt: null }] : [],
      ),
    },
    { closed: true },
  );
  const wave = pickList.orderIds.length > 1;
  const lines = [...pickList.lines].sort((a, b) => a.lineNo - b.lineNo);
  const open = lines.filter((l) => l.status === "open");
  const walk = [
    ...open.filter((l) => !skipped.includes(l.id)),
    ...skipped.flatMap((id) => open.filter((l) => l.id === id)),
  ];
  const line = walk[0];
  const product = line && products.get(line.productId);
  const serialTracked = product?.tracking === "serial";
  const current: Scans = line && scans.lineId === line.id ? scans : { lineId: line?.id ?? "" };
  const step: Step = !line
    ? "location"
    : !current.location
      ? "location"
      : !current.product
        ? "product"
        : line.lotNumber && !current.lotNumber
          ? "lot"
          : wave && !totes[line.orderId]
            ? "tote"
            : serialTracked
              ? "serial"
              : "quantity";
  const orderName = (l: Line) => data.orderNumbers[l.orderId] ?? l.orderId.slice(0, 8);
  const setDevice = (change: (d: PickDevice) => PickDevice) => changeDevice<PickDevice>(subject, change);

  /**
   * A pick stored on the device, to be sent when the server can be reached. More than the line asks is refused
   * here, in the API's words: the device knows the line, and the screen must not show units it will not get.
   */
  const pick = async (
    l: Line,
    scanned: Scans,
    amount: Record<string, unknown>,
    units: number,
    what: string,
  ) => {
    if (units > remainingOf(l)) throw new Error(`Line ${l.lineNo} asks for ${remainingOf(l)} more`);
    await enqueue({
      kind: "pick",
      subject,
      id: pickList.id,
      body: {
        lineId: l.id,
        location: scanned.location ?? "",
        product: scanned.product ?? "",
        ...amount,
        ...(scanned.lotNumber && { lotNumber: scanned.lotNumber }),
        ...(totes[l.orderId] && { toteCode: totes[l.orderId] }),
      },
      effect: { lineId: l.id, units },
      label: `Pick ${what} from ${l.locationCode} (line ${l.lineNo}, order ${orderName(l)})`,
      undo: `Put ${what} back in ${l.locationCode}.`,
    });
  };

  /** One unit of a serial-tracked line, named by its serial number: a pick of its own. */
  const pickSerial = async (l: Line, scanned: Scans, serial: string, p: Product) => {
    if (serial === p.sku || serial === p.barcode)
      throw new Error(`That is ${p.sku} itself: scan the serial number on the unit`);
    const taken = writes.waiting.some(
      (w) =>
        w.effect?.lineId === l.id && (w.body as { serialNumbers?: string[] }).serialNumbers?.includes(serial),
    );
    if (taken) throw new Error(`Serial number ${serial} is picked already`);
    await pick(l, scanned, { quantity: 1, serialNumbers: [serial] }, 1, `${p.sku} serial ${serial}`);
    return `Picked ${p.sku} serial ${serial}`;
  };

  const pipeline = useScanPipeline(async (scan: Scan) => {
    if (!line || !product) return;
    if (step === "quantity") {
      const amount = await amountOf(scan, product, remainingOf(line), resolve);
      await pick(
        line,
        current,
        amountBody(amount),
        amount.units,
        `${formatInteger(amount.units)} ${product.sku}`,
      );
      return;
    }
    if (step === "serial") return pickSerial(line, current, scan.gs1?.serial ?? scan.raw, product);
    if (step === "tote") {
      await setDevice((d) => ({ ...d, totes: { ...d.totes, [line.orderId]: scan.raw } }));
      return `Tote ${scan.raw} for ${orderName(line)}`;
    }
    if (step === "lot") {
      const lot = scan.gs1?.lot ?? scan.raw;
      if (lot !== line.lotNumber && !confirms("lot", line, await resolve(scan.code)))
        throw new Error(`Wrong lot: expected ${line.lotNumber} (line ${line.lineNo}), scanned ${lot}`);
      setScans({ ...current, lotNumber: line.lotNumber ?? lot });
      return;
    }
    const matches = await resolve(scan.code);
    if (!confirms(step, line, matches)) {
      throw new Error(
        `Wrong ${step}: expected ${expectedAt(step, line)} (line ${line.lineNo}), scanned ${scan.raw}`,
      );
    }
    if (step === "location") {
      setScans({ ...current, location: scan.code });
      return;
    }
    // A GS1 code names the product and may carry the lot and the unit's serial number in the same scan.
    const lot = scan.gs1?.lot;
    if (lot && line.lotNumber && lot !== line.lotNumber)
      throw new Error(`Wrong lot: expected ${line.lotNumber} (line ${line.lineNo}), scanned ${lot}`);
    const scanned = { ...current, product: scan.code, ...(lot && line.lotNumber && { lotNumber: lot }) };
    setScans(scanned);
    const serial = scan.gs1?.serial;
    if (serial && serialTracked && (!line.lotNumber || scanned.lotNumber) && (!wave || totes[line.orderId]))
      return pickSerial(line, scanned, serial, product);
  });
  const done = lines.filter((l) => l.status !== "open").length;
  const picked = line?.pickedQuantity ?? 0;

  return (
    <>
      <FloorStatus offline={offline} waiting={writes.waiting.length} />
      <RefusedWrites refused={writes.refused} />
      <div class="pick-progress">
        <progress max={lines.length} value={done} aria-label="Lines done" />
        <span>
          {formatInteger(done)} of {formatInteger(lines.length)} lines done
        </span>
      </div>
      {!line || !product ? (
        <div class="alert alert-info" role="status">
          <p>
            {pickList.status === "completed"
              ? "Pick list complete: every line is picked or short."
              : `This pick list is ${statusLabel(pickList.status)}.`}
          </p>
          <p>
            <a href="/app/pick">Pick another list</a> ·{" "}
            <a href={`/app/pick-lists/${pickList.id}`}>See its lines</a>
          </p>
        </div>
      ) : (
        <>
          <section class="pick-line" aria-label={`Line ${line.lineNo}`}>
            <p class="pick-location">{line.locationCode}</p>
            <p class="pick-product">
              {line.sku}
              {line.lotNumber && <> · lot {line.lotNumber}</>}
            </p>
            <p class="pick-name">{product.name}</p>
            <p class="pick-order">
              Order {orderName(line)}
              {wave && <> · tote {totes[line.orderId] ?? "not scanned yet"}</>}
            </p>
            <p>
              Pick {formatInteger(remainingOf(line))}
              {picked > 0 && <> ({formatInteger(picked)} picked already)</>} · line {line.lineNo} of{" "}
              {lines.length}
              {skipped.includes(line.id) && <> · skipped earlier</>}
            </p>
            <ul class="pick-checks">
              <li>{current.location ? `✓ Location ${current.location}` : "Location not scanned yet"}</li>
              <li>{current.product ? `✓ Product ${current.product}` : "Product not scanned yet"}</li>
              {line.lotNumber && (
                <li>{current.lotNumber ? `✓ Lot ${current.lotNumber}` : "Lot not scanned yet"}</li>
              )}
            </ul>
          </section>
          <ScanField
            label={
              step === "tote"
                ? `Scan tote for ${orderName(line)}`
                : step === "serial"
                  ? `Serial number ${picked + 1} of ${line.quantity - line.shortQuantity}`
                  : PROMPTS[step]
            }
            numeric={step === "quantity"}
            prefill={step === "quantity" ? String(remainingOf(line)) : ""}
            next={`${line.id}:${line.pickedQuantity}`}
            pipeline={pipeline}
            paused={shorting}
            submitLabel={step === "quantity" ? "Confirm pick" : "Enter"}
          />
          <div class="toolbar">
            <button
              type="button"
              class="button"
              onClick={() => {
                setScans({ lineId: line.id });
                pipeline.clear();
                focusScanField();
              }}
            >
              Scan again
            </button>
            {walk.length > 1 && (
              <button
                type="button"
                class="button"
                onClick={() => {
                  void setDevice((d) => ({
                    ...d,
                    skipped: [...d.skipped.filter((id) => id !== line.id), line.id],
                  }));
                  pipeline.clear();
                  focusScanField();
                }}
              >
                Skip line
              </button>
            )}
            <button type="button" class="button button-danger" onClick={() => setShorting(true)}>
              Short pick
            </button>
          </div>
          {shorting && (
            <ShortDialog
              line={line}
              onClose={() => setShorting(false)}
              onShort={(quantity, reason) =>
                enqueue({
                  kind: "short",
                  subject,
                  id: pickList.id,
                  body: { lineId: line.id, quantity, reason },
                  effect: { lineId: line.id, units: quantity },
                  label: `Short ${formatInteger(quantity)} ${line.sku} at ${line.locationCode} (line ${line.lineNo}): ${reason}`,
                  undo: `Ask the office about line ${line.lineNo}: the shortfall was not recorded.`,
                })
              }
            />
          )}
          <WaveLines lines={lines} current={line} orderName={orderName} products={products} totes={totes} />
        </>
      )}
    </>
  );
}

const PROMPTS: Record<Exclude<Step, "tote" | "serial">, string> = {
  location: "Scan location",
  product: "Scan product",
  lot: "Scan lot",
  quantity: "Quantity",
};

/** Whether a scan is what the line expects at this step; the pick itself is checked again by the API. */
function confirms(step: "location" | "product" | "lot", line: Line, matches: ScanMatch[]): boolean {
  if (step === "product") return unitOf(matches, line.productId) !== undefined;
  return matches.some((m) =>
    step === "location"
      ? m.type === "location" && m.location.id === line.locationId
      : m.type === "lot" && m.lot.productId === line.productId && m.lot.number === line.lotNumber,
  );
}

const expectedAt = (step: "location" | "product", line: Line) =>
  step === "location" ? line.locationCode : line.sku;

/**
 * Every line of the list, so a picker sees what comes and, in a wave, which order and tote each line is for (two
 * orders' lines of one product differ only there).
 */
function WaveLines({
  lines,
  current,
  orderName,
  products,
  totes,
}: {
  lines: Line[];
  current: Line;
  orderName: (line: Line) => string;
  products: Map<string, Product>;
  totes: Record<string, string>;
}) {
  return (
    <details class="wave-lines">
      <summary>All {lines.length} lines</summary>
      <ol>
        {lines.map((l) => (
          <li key={l.id} aria-current={l.id === current.id ? "step" : undefined}>
            {l.locationCode} · {l.sku} {products.get(l.productId)?.name ?? ""} · {formatInteger(l.quantity)} ·
            order {orderName(l)}
            {totes[l.orderId] && <> · tote {totes[l.orderId]}</>} · {statusLabel(l.status)}
          </li>
        ))}
      </ol>
    </details>
  );
}

/** Fewer units in the bin than the line asks: the shortfall is recorded and its order line backordered. */
function ShortDialog({
  line,
  onClose,
  onShort,
}: {
  line: Line;
  onClose: () => void;
  onShort: (quantity: number, reason: string) => Promise<unknown>;
}) {
  const submit = useSubmit(async (fields: Record<string, string>) => {
    await onShort(Number(fields.quantity), fields.reason ?? "");
    onClose();
  });
  return (
    <Modal title={`Short pick at ${line.locationCode}`} onClose={onClose}>
      <form onSubmit={(event) => void submit.run(fieldsOf(event))}>
        <p>
          {line.sku}: {formatInteger(remainingOf(line))} still to pick on line {line.lineNo}.
        </p>
        <label class="field">
          <span>Units short</span>
          <input
            name="quantity"
            type="number"
            required
            min={1}
            max={remainingOf(line)}
            step={1}
            inputMode="numeric"
            value={remainingOf(line)}
          />
        </label>
        <label class="field">
          <span>Reason</span>
          <input name="reason" required maxLength={200} placeholder="bin empty" />
        </label>
        <DialogActions submit={submit} submitLabel="Record short" onClose={onClose} danger />
      </form>
    </Modal>
  );
}
